import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { SETUP_PROTECTED_NAMES as SANDBOX_NAMES } from "../../sandbox/placeholders.ts";
import { SETUP_WATCHED_FOLDERS, WATCHED_FILE_NAMES } from "../workspace/held_back.ts";
import { SETUP_LOCATIONS, SETUP_PROTECTED_NAMES } from "./locations.ts";
import { setupSourcesReport } from "./report.ts";
import type { SetupContext } from "./sources.ts";

Deno.test("every project location is watched for changes, and the sandbox protects the same names", () => {
  assert.deepEqual([...SETUP_PROTECTED_NAMES], [...SANDBOX_NAMES]);
  for (const location of SETUP_LOCATIONS.filter((l) => l.scope === "project")) {
    const watched = location.form === "folder" ? SETUP_WATCHED_FOLDERS : WATCHED_FILE_NAMES;
    assert.ok(watched.includes(location.path), `${location.path} is watched`);
  }
});

/** Writes `files` (path → text) under a new temp folder; removed on dispose. */
async function tree(files: Record<string, string>) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_setup_report_" }));
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("the setup report lists what exists per kind and says what was skipped and why", async () => {
  await using t = await tree({
    "user/.claude/settings.json": "{}",
    "user/.claude/agents/a.md": "x",
    "user/.gemini/settings.json": "{}",
    "repo/.claude/commands/fixit.md": "x",
    "repo/.mcp.json": "{}",
    "repo/GEMINI.md": "x",
    "repo/.gemini/settings.json": "{}",
  });
  const repo = join(t.dir, "repo");
  const held = join(repo, ".gemini", "settings.json");
  const ctx: SetupContext = {
    cwd: repo,
    projectRoot: repo,
    home: join(t.dir, "home"),
    userHome: join(t.dir, "user"),
    projectTrusted: true,
    importUser: new Set(["hooks"]),
    isHeldBack: (path) => path === held,
  };
  const text = (await setupSourcesReport(ctx)).join("\n").replaceAll(t.dir, "T");
  assert.match(text, /# {3}commands:\n# {5}T\/repo\/\.claude\/commands \(Claude Code, project\)/);
  assert.match(text, /# {3}sub-agents:\n# {5}T\/user\/\.claude\/agents \(Claude Code, user\)/);
  assert.match(text, /# {5}T\/repo\/\.mcp\.json \(Claude Code, project\)/);
  assert.match(text, /T\/user\/\.claude\/settings\.json \(Claude Code, user\): hooks\n/);
  assert.match(text, /T\/repo\/GEMINI\.md \(Gemini CLI, project\): read by gemini-cli/);
  assert.match(
    text,
    /skipped:\n(.*\n)*# {3}T\/user\/\.claude\/settings\.json \(Claude Code, user\): permissions, env not imported; add "permissions", "env" to import_user_setups/,
  );
  assert.match(text, /T\/repo\/\.gemini\/settings\.json \(Gemini CLI, project\): held back/);

  const untrusted = await setupSourcesReport({ ...ctx, projectTrusted: false });
  const shown = untrusted.join("\n");
  assert.doesNotMatch(shown, /\.mcp\.json/);
  assert.match(shown, /2 of the project's MCP and settings files .*: the project is not trusted/);
  assert.match(shown, /\.claude\/commands \(Claude Code, project\)/, "commands are read anyway");
  assert.match(shown, /GEMINI\.md .*read by gemini-cli/, "instruction files are read anyway");
});
