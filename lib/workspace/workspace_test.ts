import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../harness/load.ts";
import type { ContextEntry, Harness } from "../harness/types.ts";
import { openWorkspace } from "./workspace.ts";

const BUILTIN = fileURLToPath(new URL("../../harnesses", import.meta.url));

const skill = (name: string) => `---\nname: ${name}\ndescription: ALWAYS use ${name}\n---\nbody\n`;

/**
 * A git repository `repo/` whose `sub/` folder is the working directory, an interpreter home
 * and a user home, each holding `files` (path under the temp folder → text); removed on dispose.
 */
async function project(files: Record<string, string>) {
  // Outside /tmp: the git runner's sandbox has a private /tmp.
  const parent = join(Deno.cwd(), "..");
  const dir = await Deno.realPath(
    await Deno.makeTempDir({ dir: parent, prefix: ".oi_workspace_" }),
  );
  const repo = join(dir, "repo");
  const cwd = join(repo, "sub");
  await Deno.mkdir(cwd, { recursive: true });
  const init = await new Deno.Command("git", { args: ["init", "-q"], cwd: repo }).output();
  assert.equal(init.code, 0, new TextDecoder().decode(init.stderr));
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: join(dir, "user"),
    OPENINTERPRETER_TEST_TIME: "2026-12-01",
  };
  const open = () => openWorkspace(cwd, { home: join(dir, "home"), env });
  return {
    dir,
    repo,
    cwd,
    open,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** A built-in harness whose only context is `text`. */
async function harnessWith(text: string): Promise<Harness> {
  const h = await loadHarness("minimal", { builtinDir: BUILTIN, userDir: join(BUILTIN, "none") });
  const entry: ContextEntry = { slot: "system", text, cache: false, samePart: false };
  return {
    ...h,
    context: [entry],
    projectInstructions: undefined,
    texts: { ...h.texts, reviewer: "" },
  };
}

Deno.test("openWorkspace() finds the repository, instruction files and skills from a subfolder", async () => {
  await using p = await project({
    "home/AGENTS.md": "home rules\n",
    "repo/AGENTS.md": "repo rules\n",
    "repo/sub/AGENTS.md": "sub rules\n",
    "repo/CLAUDE.md": "claude repo rules\n",
    "user/.claude/CLAUDE.md": "claude user rules\n",
    "repo/.agents/skills/deploy/SKILL.md": skill("deploy"),
  });
  await using ws = await p.open();
  assert.equal(ws.cwd, p.cwd);
  assert.equal(ws.projectRoot, p.repo);
  assert.equal(await ws.gitRoot(), p.repo);
  assert.deepEqual((await ws.instructions("AGENTS.md")).files.map((f) => f.path), [
    join(p.dir, "home/AGENTS.md"),
    join(p.repo, "AGENTS.md"),
    join(p.cwd, "AGENTS.md"),
  ]);
  assert.deepEqual((await ws.skills()).map((s) => s.name), ["deploy"]);
  assert.deepEqual(ws.heldBack, []);

  const h = await harnessWith("{{agents_md}} {{claude_md}} {{skills}} {{git_status}} {{is_git}}");
  const vars = await ws.promptVars(h, { model: "m1", guidance: false });
  assert.equal(vars.agentsMd, "home rules\n\nrepo rules\n\nsub rules");
  assert.equal(vars.claudeMd, "claude user rules\n\nclaude repo rules");
  assert.equal(
    vars.skills,
    `- deploy: ALWAYS use deploy (file: ${ws.projectRoot}/.agents/skills/deploy/SKILL.md)`,
  );
  assert.match(vars.gitStatus, /^## /);
  assert.equal(vars.isGit, "Yes");
  assert.deepEqual([vars.cwd, vars.model, vars.date, vars.guidance], [
    p.cwd,
    "m1",
    "2026-12-01",
    "",
  ]);
});

Deno.test("control: promptVars() gathers only what the harness's templates use", async () => {
  await using p = await project({
    "repo/AGENTS.md": "repo rules\n",
    "repo/.agents/skills/deploy/SKILL.md": skill("deploy"),
  });
  await using ws = await p.open();
  const vars = await ws.promptVars(await harnessWith("In {{cwd}} on {{date_long}}"), {
    model: "m",
  });
  assert.deepEqual([vars.agentsMd, vars.gitStatus, vars.skills], ["", "", undefined]);
  assert.equal(vars.dateLong, "Tuesday, December 1, 2026");
  assert.equal(vars.isGit, undefined);
});

Deno.test("a skill planted while a workspace was open is held back by the next one", async () => {
  await using p = await project({ "repo/.agents/skills/deploy/SKILL.md": skill("deploy") });
  const planted = join(p.repo, ".agents/skills/planted/SKILL.md");
  {
    await using _first = await p.open();
    await Deno.mkdir(dirname(planted), { recursive: true });
    await Deno.writeTextFile(planted, skill("planted"));
  }
  await using ws = await p.open();
  assert.deepEqual(ws.heldBack, [planted]);
  assert.equal(ws.isHeldBack(planted), true);
  assert.equal(ws.notices.length, 1);
  assert.match(ws.notices[0], /^Held back a file .*planted\/SKILL\.md/);
  // The skill there before the first workspace opened is no change of a session: it loads.
  assert.deepEqual((await ws.skills()).map((s) => s.name), ["deploy"]);
  const vars = await ws.promptVars(await harnessWith("{{skills}}"), { model: "m" });
  assert.doesNotMatch(vars.skills ?? "", /planted/);
});

Deno.test("openWorkspace() outside a repository stops at the working directory", async () => {
  await using p = await project({ "home/AGENTS.md": "home rules\n" });
  await Deno.remove(join(p.repo, ".git"), { recursive: true });
  await using ws = await p.open();
  assert.equal(ws.projectRoot, p.cwd);
  assert.equal(await ws.gitRoot(), undefined);
  const vars = await ws.promptVars(await harnessWith("{{git_status}} {{is_git}}"), { model: "m" });
  assert.deepEqual([vars.gitStatus, vars.isGit], ["(not a git repository)", "No"]);
  await assert.rejects(() => ws.repoGit(["status"]), /is not inside a git repository/);
});
