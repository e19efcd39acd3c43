import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { need } from "../../sandbox/_test_requires.ts";
import { openSession, type SessionEvent } from "./open.ts";
import { sessionWorkspace } from "./_test_session.ts";

await need("bwrap");

const GIT = "git -c user.name=t -c user.email=t@example.com";

/**
 * A repository with one commit and a config home whose provider is the fake server. It lives
 * outside /tmp, which sandboxed commands see as a private, empty folder.
 */
async function repoWorkspace(fake: { baseUrl: string }) {
  const ws = await sessionWorkspace(fake.baseUrl, "", { dir: "/var/tmp" });
  const git = (...args: string[]) => new Deno.Command("git", { args, cwd: ws.cwd }).output();
  await Deno.writeTextFile(join(ws.cwd, "a.txt"), "a\n");
  await git("add", "a.txt");
  await git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "one");
  return ws;
}

const bash = (command: string) => ({ name: "Bash", args: { command } });

Deno.test("EnterWorktree moves the session and its sandbox into a worktree; ExitWorktree brings it back", async () => {
  await using fake = await startFakeProvider([
    {
      reply: {
        tool_calls: [{ name: "ToolSearch", args: { query: "select:EnterWorktree,ExitWorktree" } }],
      },
    },
    { reply: { tool_calls: [{ name: "EnterWorktree", args: { name: "fix-1" } }] } },
    {
      expect: { last_tool_result_contains: "Created worktree fix-1" },
      reply: {
        tool_calls: [
          bash(`pwd && echo new > new.txt && ${GIT} add new.txt && ${GIT} commit -q -m new`),
          bash('echo pwned >> "$(git rev-parse --git-common-dir)/config"'),
          bash('echo pwned > "$(git rev-parse --git-common-dir)/hooks/pre-commit"'),
          bash('echo pwned >> "$(git rev-parse --git-common-dir)/../a.txt"'),
        ],
      },
    },
    {
      reply: { tool_calls: [{ name: "ExitWorktree", args: { action: "remove" } }] },
    },
    {
      expect: { last_tool_result_contains: "commit(s) of its own" },
      reply: {
        tool_calls: [{ name: "ExitWorktree", args: { action: "remove", discard_changes: true } }],
      },
    },
    {
      expect: { last_tool_result_contains: "removed it with branch worktree-fix-1" },
      reply: { tool_calls: [bash("pwd && echo back > back.txt")] },
    },
    { reply: { text: "Done." } },
  ]);
  await using ws = await repoWorkspace(fake);
  const events: SessionEvent[] = [];
  await using session = await openSession(
    { cwd: ws.cwd, harness: "claude-code", sandbox: "workspace-write", approval: "never" },
    { onEvent: (e) => events.push(e) },
    { env: ws.env },
  );
  const outcome = await session.prompt("work in a worktree", new AbortController().signal);
  const results = events.flatMap((e) => e.type === "tool_end" ? [e.text] : []);
  assert.equal(outcome.status, "completed", results.join("\n---\n"));
  assert.deepEqual(fake.failures, []);
  const worktree = join(ws.home, "worktrees");
  assert.match(results[1], /^Created worktree fix-1 at .*\/fix-1 on branch worktree-fix-1/);
  assert.ok(results[2].includes(worktree), `the command ran in the worktree: ${results[2]}`);
  for (const refused of results.slice(3, 6)) {
    assert.match(refused, /Read-only file system|Permission denied/, refused);
  }
  assert.doesNotMatch(await Deno.readTextFile(join(ws.cwd, ".git", "config")), /pwned/);
  assert.equal(await Deno.readTextFile(join(ws.cwd, "a.txt")), "a\n");
  assert.match(results[7], /Left worktree .* and removed it with branch worktree-fix-1/);
  assert.ok(results[8].startsWith(ws.cwd), `back in the checkout: ${results[8]}`);
  assert.equal(await Deno.readTextFile(join(ws.cwd, "back.txt")), "back\n");
  assert.deepEqual(
    [...Deno.readDirSync(worktree)].flatMap((d) => [...Deno.readDirSync(join(worktree, d.name))]),
    [],
  );
  assert.equal(session.settings.cwd, ws.cwd);
  assert.deepEqual(session.settings.writableRoots, [ws.cwd]);
});

Deno.test("Qwen Code's enter_worktree and exit_worktree, through tool_call, keep the worktree on leaving", async () => {
  const call = (name: string, args: Record<string, unknown>) => ({
    name: "tool_call",
    args: { name, arguments: args },
  });
  await using fake = await startFakeProvider([
    { reply: { tool_calls: [call("enter_worktree", { name: "q1" })] } },
    {
      expect: { last_tool_result_contains: "Worktree q1 created" },
      reply: { tool_calls: [call("exit_worktree", { name: "other", action: "keep" })] },
    },
    {
      expect: { last_tool_result_contains: "not other" },
      reply: { tool_calls: [call("exit_worktree", { name: "q1", action: "keep" })] },
    },
    { reply: { text: "Done." } },
  ]);
  await using ws = await repoWorkspace(fake);
  const events: SessionEvent[] = [];
  await using session = await openSession(
    { cwd: ws.cwd, harness: "qwen-code", sandbox: "workspace-write", approval: "never" },
    { onEvent: (e) => events.push(e) },
    { env: ws.env },
  );
  const outcome = await session.prompt("use a worktree", new AbortController().signal);
  const results = events.flatMap((e) => e.type === "tool_end" ? [e.text] : []);
  assert.equal(outcome.status, "completed", results.join("\n---\n"));
  assert.deepEqual(fake.failures, []);
  const kept = /it stays at (\S+) on branch worktree-q1/.exec(results[2])?.[1];
  assert.ok(kept, results[2]);
  assert.equal(await Deno.readTextFile(`${kept.replace(/\.$/, "")}/a.txt`), "a\n");
  assert.equal(session.settings.cwd, ws.cwd);
});

Deno.test("configure() moves the working directory with its writable roots, and refuses a bad one", async () => {
  await using fake = await startFakeProvider([]);
  await using ws = await repoWorkspace(fake);
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "workspace-write", approval: "never" },
    { onEvent: () => {} },
    { env: ws.env },
  );
  const sub = join(ws.cwd, "sub");
  await Deno.mkdir(sub);
  const moved = await session.configure({ cwd: sub });
  assert.equal(moved.cwd, sub);
  assert.deepEqual(moved.writableRoots, [sub]);
  const both = await session.configure({ cwd: ws.cwd, writableRoots: [ws.cwd, sub] });
  assert.deepEqual(both.writableRoots, [ws.cwd, sub]);
  await assert.rejects(() => session.configure({ cwd: "sub" }), /is not absolute/);
  await assert.rejects(
    () => session.configure({ cwd: join(ws.cwd, "missing") }),
    /is not a folder/,
  );
  assert.equal(session.settings.cwd, ws.cwd, "a refused change leaves the settings as they were");
});

Deno.test("EnterWorktree enters an existing worktree by path, and only one git lists", async () => {
  await using fake = await startFakeProvider([
    {
      reply: {
        tool_calls: [{ name: "ToolSearch", args: { query: "select:EnterWorktree,ExitWorktree" } }],
      },
    },
    { reply: { tool_calls: [{ name: "EnterWorktree", args: { path: "." } }] } },
    {
      expect: { last_tool_result_contains: "is not a worktree of the repository" },
      reply: { tool_calls: [{ name: "EnterWorktree", args: { path: "../side" } }] },
    },
    {
      expect: { last_tool_result_contains: "Entered worktree" },
      reply: { tool_calls: [{ name: "ExitWorktree", args: { action: "remove" } }] },
    },
    {
      expect: { last_tool_result_contains: "not created by this session" },
      reply: { tool_calls: [{ name: "ExitWorktree", args: { action: "keep" } }] },
    },
    { reply: { text: "Done." } },
  ]);
  await using ws = await repoWorkspace(fake);
  const side = join(ws.cwd, "..", "side");
  const add = await new Deno.Command("git", { args: ["worktree", "add", "-q", side], cwd: ws.cwd })
    .output();
  assert.ok(add.success, new TextDecoder().decode(add.stderr));
  const events: SessionEvent[] = [];
  await using session = await openSession(
    { cwd: ws.cwd, harness: "claude-code", sandbox: "workspace-write", approval: "never" },
    { onEvent: (e) => events.push(e) },
    { env: ws.env },
  );
  const outcome = await session.prompt("use the side worktree", new AbortController().signal);
  const results = events.flatMap((e) => e.type === "tool_end" ? [e.text] : []);
  assert.equal(outcome.status, "completed", results.join("\n---\n"));
  assert.deepEqual(fake.failures, []);
  assert.match(results[4], /^Left worktree .*side \(kept, branch side\)/);
  assert.ok(await Deno.stat(join(side, "a.txt")));
});
