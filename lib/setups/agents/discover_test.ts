import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SetupContext } from "../sources.ts";
import { discoverAgents } from "./discover.ts";

const FIXTURE = fileURLToPath(new URL("../../../tests/fixtures/setups/repo", import.meta.url));

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const [a, b] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isDirectory) await copyTree(a, b);
    else if (entry.isFile) await Deno.copyFile(a, b);
  }
}

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
}

/** A copy of the fixture repository and a user home, removed at the end. */
async function setup(trusted: boolean) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi-agents-" }));
  const repo = join(root, "repo");
  await copyTree(FIXTURE, repo);
  const userHome = join(root, "home");
  await write(
    join(userHome, ".claude", "agents", "mine.md"),
    "---\nname: reviewer\ndescription: My own reviewer\n---\nMine.",
  );
  await write(join(userHome, ".claude", "agents", "broken.md"), "---\nname: x\n---\nbody");
  await write(
    join(userHome, ".gemini", "agents", "explore.md"),
    "---\nname: Explore\ndescription: clashes with a built-in\n---\nx",
  );
  const ctx: SetupContext = {
    cwd: repo,
    projectRoot: repo,
    home: join(root, "oi-home"),
    userHome,
    projectTrusted: trusted,
    importUser: new Set(),
  };
  return { ctx, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }) };
}

Deno.test("the fixture's agents of every vendor are found, clashes and bad files warned", async () => {
  await using s = await setup(true);
  const { agents, warnings } = await discoverAgents(s.ctx);
  const names = agents.map((a) => `${a.name}:${a.vendor}:${a.scope}`).sort();
  assert.deepEqual(names, [
    "auditor:codex:project",
    "doc-checker:gemini:project",
    "docs-writer:opencode:project",
    "reviewer:claude:user",
    "tester:ours:project",
  ]);
  assert.equal(agents.find((a) => a.name === "reviewer")?.description, "My own reviewer");
  const text = warnings.join("\n");
  assert.match(text, /broken\.md: it has no description/);
  assert.match(
    text,
    /The sub-agent "reviewer" of .*\.claude\/agents\/reviewer\.md is not used: .*mine\.md defines the same name/,
  );
  assert.match(text, /The sub-agent "Explore" of .*explore\.md is not used: a built-in agent type/);
  assert.doesNotMatch(text, /_draft|build\.md/, "skipped files are no warnings");
  assert.equal(warnings.length, 3);
});

Deno.test("a project's agents are read whether it is trusted or not (they run nothing)", async () => {
  await using s = await setup(false);
  const { agents } = await discoverAgents(s.ctx);
  assert.ok(agents.some((a) => a.scope === "project"), JSON.stringify(agents.map((a) => a.name)));
  assert.ok(agents.some((a) => a.scope === "user"));
});
