import assert from "node:assert/strict";
import { join } from "node:path";
import type { SetupContext } from "../sources.ts";
import { discoverCommands, findCommand, withoutBuiltins } from "./discover.ts";
import { commandDefinitions } from "./definitions.ts";

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
}

async function context(trusted = true): Promise<SetupContext & AsyncDisposable> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi-commands-" }));
  const project = join(root, "repo");
  const ctx = {
    cwd: join(project, "sub"),
    projectRoot: project,
    home: join(root, "oi-home"),
    userHome: join(root, "home"),
    projectTrusted: trusted,
    importUser: new Set<never>(),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
  await write(root, {
    "repo/.claude/commands/fixit.md": "---\ndescription: project fixit\n---\nFix $ARGUMENTS\n",
    "repo/.claude/commands/review.md": "Review !`git diff`\n",
    "repo/sub/.gemini/commands/git/log.toml": 'prompt = "!{git log -1}"\n',
    "repo/.qwen/commands/bad.md": "---\ndescription: [oops\n---\nx\n",
    "home/.claude/commands/fixit.md": "---\ndescription: my fixit\n---\nMine\n",
    "home/.codex/prompts/draft.md": "Draft $1\n",
    "oi-home/commands/help.md": "Not the built-in\n",
  });
  return ctx;
}

Deno.test("discoverCommands() puts the user's before the project's and warns once per clash", async () => {
  await using ctx = await context();
  const { commands, warnings } = await discoverCommands(ctx);
  assert.deepEqual(commands.map((c) => [c.name, c.scope]).sort(), [
    ["fixit", "user"],
    ["git:log", "project"],
    ["help", "user"],
    ["prompts:draft", "user"],
    ["review", "project"],
  ]);
  assert.equal(findCommand(commands, "fixit")?.description, "my fixit");
  assert.equal(findCommand(commands, "draft")?.name, "prompts:draft");
  const clash = warnings.filter((w) => w.includes('"fixit"'));
  assert.equal(clash.length, 1);
  assert.match(
    clash[0],
    /repo\/\.claude\/commands\/fixit\.md.*home\/\.claude\/commands\/fixit\.md/,
  );
  assert.ok(
    warnings.some((w) => /repo\/\.qwen\/commands\/bad\.md, line \d+: bad front matter/.test(w)),
  );
  const { commands: left, warnings: more } = withoutBuiltins({ commands, warnings }, ["help"]);
  assert.equal(findCommand(left, "help"), undefined);
  assert.match(
    more.at(-1)!,
    /"\/help" of .*oi-home\/commands\/help\.md is not used: \/help is a built-in/,
  );
});

Deno.test("discoverCommands() follows a user's linked file and warns of a project's link out", async () => {
  await using ctx = await context();
  const outside = join(ctx.userHome!, "..", "outside.md");
  await Deno.writeTextFile(outside, "Outside\n");
  await Deno.symlink(outside, join(ctx.userHome!, ".claude/commands/linked.md"));
  await Deno.symlink(outside, join(ctx.projectRoot, ".claude/commands/escape.md"));
  const { commands, warnings } = await discoverCommands(ctx);
  assert.equal(commands.find((c) => c.name === "linked")?.body, "Outside\n");
  assert.equal(commands.find((c) => c.name === "escape"), undefined);
  assert.ok(
    warnings.some((w) => /escape\.md: it leads through a link to .*outside the project/.test(w)),
  );
});

Deno.test("discoverCommands() reads a project's commands whether it is trusted or not", async () => {
  await using ctx = await context(false);
  const { commands } = await discoverCommands(ctx);
  assert.ok(commands.some((c) => c.scope === "project"));
  assert.deepEqual(commands.filter((c) => c.scope === "user").length, 3);
});

Deno.test("commandDefinitions() lists the project's commands that run something, each by digest", async () => {
  await using ctx = await context();
  const found = await commandDefinitions(ctx);
  assert.deepEqual(found.map((d) => [d.kind, d.name, d.command]), [
    ["command", "/git:log", "git log -1"],
    ["command", "/review", "git diff"],
  ]);
  await Deno.writeTextFile(
    join(ctx.projectRoot, ".claude/commands/review.md"),
    "!`git diff HEAD`\n",
  );
  const changed = (await commandDefinitions(ctx)).find((d) => d.name === "/review");
  assert.equal(changed?.command, "git diff HEAD");
  assert.notEqual(changed?.key, found[1].key);
});
