import assert from "node:assert/strict";
import { join } from "node:path";
import { parseScript, startFakeProvider } from "../../tests/fake_provider/server.ts";
import type { SkillInfo } from "../tools/skills.ts";
import { openWorkspace, type Workspace } from "../workspace/workspace.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession } from "./open.ts";

/** The change-watch records open in `home`: one per workspace not closed yet. */
async function openRecords(home: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(join(home, "state", "open"))) names.push(entry.name);
  return names;
}

/**
 * `workspace` offering one skill, `given`, that no discovery would find (its folder is in no
 * skills root), and counting how often it is disposed.
 */
async function countedWorkspace(workspace: Workspace, dir: string) {
  const path = join(dir, "given", "SKILL.md");
  await Deno.mkdir(join(dir, "given"));
  await Deno.writeTextFile(path, "---\nname: given\ndescription: d\n---\nGIVEN-SKILL-BODY\n");
  const skill: SkillInfo = { name: "given", description: "d", path, dir, scope: "repo" };
  const counted = {
    disposed: 0,
    workspace: {
      ...workspace,
      skills: () => Promise.resolve([skill]),
      async [Symbol.asyncDispose]() {
        counted.disposed++;
        await workspace[Symbol.asyncDispose]();
      },
    },
  };
  return counted;
}

Deno.test("a session opened on a given workspace uses it and leaves it open", async () => {
  await using fake = await startFakeProvider(parseScript([
    JSON.stringify({ reply: { tool_calls: [{ name: "skill", args: { skill: "given" } }] } }),
    JSON.stringify({
      expect: { last_tool_result_contains: "GIVEN-SKILL-BODY" },
      reply: { text: "done" },
    }),
  ].join("\n")));
  await using ws = await sessionWorkspace(fake.baseUrl);
  const given = await countedWorkspace(
    await openWorkspace(ws.cwd, { home: ws.home, env: ws.env }),
    ws.home,
  );
  {
    await using session = await openSession(
      { cwd: ws.cwd, harness: "qwen-code", sandbox: "danger-full-access", approval: "never" },
      { onEvent: () => {} },
      { env: ws.env, workspace: given.workspace },
    );
    assert.deepEqual((await session.skills()).map((s) => s.name), ["given"]);
    const outcome = await session.prompt("use the skill", new AbortController().signal);
    assert.deepEqual(outcome, { status: "completed", finalText: "done" });
    assert.deepEqual(fake.failures, []);
  }
  assert.equal(given.disposed, 0, "the session leaves a given workspace open");
  assert.equal((await openRecords(ws.home)).length, 1, "its change watch still runs");
  await given.workspace[Symbol.asyncDispose]();
  assert.deepEqual(await openRecords(ws.home), []);
});

Deno.test("control: a session without a workspace opens its own and closes it", async () => {
  await using fake = await startFakeProvider(parseScript(""));
  await using ws = await sessionWorkspace(fake.baseUrl);
  {
    await using _session = await openSession(
      { cwd: ws.cwd, sandbox: "danger-full-access", approval: "never" },
      { onEvent: () => {} },
      { env: ws.env },
    );
    assert.equal((await openRecords(ws.home)).length, 1);
  }
  assert.deepEqual(await openRecords(ws.home), []);
});

Deno.test("a workspace of another directory is refused and left open", async () => {
  await using fake = await startFakeProvider(parseScript(""));
  await using ws = await sessionWorkspace(fake.baseUrl);
  const other = join(ws.cwd, "other");
  await Deno.mkdir(other);
  const given = await countedWorkspace(
    await openWorkspace(other, { home: ws.home, env: ws.env }),
    ws.home,
  );
  await assert.rejects(
    () =>
      openSession({ cwd: ws.cwd }, { onEvent: () => {} }, {
        env: ws.env,
        workspace: given.workspace,
      }),
    /Cannot open a session in ".*\/ws" \(home .*\) on the workspace of ".*\/ws\/other"/,
  );
  assert.equal(given.disposed, 0);
  await given.workspace[Symbol.asyncDispose]();
});
