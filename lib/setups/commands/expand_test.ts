import assert from "node:assert/strict";
import { parseCommandFile } from "./command_file.ts";
import { CommandError, expandCommand, type ExpandDeps } from "./expand.ts";
import type { CommandFileInfo } from "./command_file.ts";
import type { SetupVendor } from "../sources.ts";

function command(text: string, vendor: SetupVendor, relative = "x.md") {
  const info: CommandFileInfo = { path: `/p/${relative}`, relative, vendor, scope: "project" };
  return parseCommandFile(text, info);
}

/** Deps that record the commands run and answer from `files`. */
function deps(files: Record<string, string> = {}, exitCode = 0) {
  const ran: string[] = [];
  const d: ExpandDeps = {
    runShell: (line) => {
      ran.push(line);
      return Promise.resolve({ output: `out of ${line}\n`, exitCode });
    },
    readMention: (path) =>
      path in files
        ? Promise.resolve(files[path])
        : Promise.reject(new Error(`no such file ${path}`)),
  };
  return { d, ran };
}

Deno.test("expandCommand() fills Claude Code's 0-based and named arguments", async () => {
  const c = command(
    "---\narguments: [file, focus]\n---\nFix $0 ($ARGUMENTS[1]) then $file/$focus $5 \\$1",
    "claude",
  );
  assert.equal(
    await expandCommand(c, 'a.py "the loop"', deps().d),
    "Fix a.py (the loop) then a.py/the loop $5 $1",
  );
});

Deno.test("expandCommand() appends ARGUMENTS to a Claude Code body that takes none", async () => {
  const c = command("Review the code.\n", "claude");
  assert.equal(await expandCommand(c, "src", deps().d), "Review the code.\n\nARGUMENTS: src");
  assert.equal(await expandCommand(c, "", deps().d), "Review the code.\n");
});

Deno.test("expandCommand() runs !`cmd` with shell-quoted arguments and inlines @path", async () => {
  const c = command(
    "Log: !`git log $0`\nRead @src/a.js, then answer.\n```!\nls\n```\nAsk a@b.c @x\n",
    "claude",
  );
  const { d, ran } = deps({ "src/a.js": "let a;\n" });
  const out = await expandCommand(c, "'x y'", d);
  assert.deepEqual(ran, ["git log 'x y'", "ls"]);
  assert.match(out, /^Log: out of git log 'x y'\nRead @src\/a\.js, then answer\.\nout of ls/);
  assert.match(out, /\nAsk a@b\.c @x\n\n<file path="src\/a\.js">\nlet a;\n<\/file>$/);
  const dotted = command("See @src/a.js.\n", "claude");
  assert.match(await expandCommand(dotted, "", deps({ "src/a.js": "A" }).d), /path="src\/a\.js">/);
});

Deno.test("expandCommand() stops on a failed Claude Code command, naming file and line", async () => {
  const c = command("---\ndescription: d\n---\nfirst\n!`make`\n", "claude");
  await assert.rejects(
    () => expandCommand(c, "", deps({}, 2).d),
    (e: unknown) =>
      e instanceof CommandError &&
      /\/x \(\/p\/x\.md, line 5\): the command `make` failed \(exit code 2\)/.test(e.message),
  );
});

Deno.test("expandCommand() names the line of a missing mention", async () => {
  const c = command("one\ntwo @missing.txt\n", "claude");
  await assert.rejects(
    () => expandCommand(c, "", deps().d),
    /\/x \(\/p\/x\.md, line 2\): cannot put in @missing\.txt: no such file missing\.txt/,
  );
});

Deno.test("expandCommand() follows Gemini CLI: {{args}}, !{} with quoted args, @{}, failures kept", async () => {
  const c = command(
    'prompt = """Do {{args}}:\n!{grep -r {{args}} .}\n@{a.txt}"""\n',
    "gemini",
    "git/find.toml",
  );
  assert.equal(c.name, "git:find");
  const { d, ran } = deps({ "a.txt": "A" }, 1);
  const out = await expandCommand(c, "it's", d);
  assert.deepEqual(ran, ["grep -r 'it'\\''s' ."]);
  assert.equal(out, "Do it's:\nout of grep -r 'it'\\''s' .\n[Shell command exited with code 1]\nA");
});

Deno.test("expandCommand() appends the typed command to a Gemini prompt without {{args}}", async () => {
  const c = command('prompt = "Summarize."\n', "gemini", "sum.toml");
  assert.equal(await expandCommand(c, "the diff", deps().d), "Summarize.\n\n/sum the diff");
  await assert.rejects(
    () => expandCommand(command('prompt = "!{ls"\n', "gemini", "b.toml"), "", deps().d),
    /"!\{" has no matching "\}"/,
  );
});

Deno.test("expandCommand() takes Codex's positional and named arguments", async () => {
  const positional = command("Fix $1 and $2 ($ARGUMENTS) for $$5\n", "codex", "fix.md");
  assert.equal(positional.name, "prompts:fix");
  assert.deepEqual(positional.aliases, ["fix"]);
  assert.equal(await expandCommand(positional, "a b", deps().d), "Fix a and b (a b) for $5\n");
  const named = command("Open $FILE at $LINE\n", "codex", "open.md");
  assert.equal(await expandCommand(named, "FILE=a.ts LINE=3", deps().d), "Open a.ts at 3\n");
  await assert.rejects(
    () => expandCommand(named, "FILE=a.ts", deps().d),
    /Missing required args for \/prompts:open: LINE/,
  );
});

Deno.test("expandCommand() gives opencode's last placeholder the rest and appends otherwise", async () => {
  const c = command("---\nagent: plan\n---\nCompare $1 with $2.\n", "opencode");
  assert.equal(c.agent, "plan");
  assert.equal(await expandCommand(c, "a b c", deps().d), "Compare a with b c.\n");
  const plain = command("Review.\n", "opencode");
  assert.equal(await expandCommand(plain, "now", deps().d), "Review.\n\nnow");
});

Deno.test("parseCommandFile() reads front matter and says what is wrong with a bad file", () => {
  const c = command(
    "---\ndescription: Fix it\nargument-hint: '[file]'\nallowed-tools: Bash(git diff:*), Read\nmodel: sonnet\ndisable-model-invocation: true\n---\n\nBody\n",
    "claude",
  );
  assert.deepEqual(
    [c.description, c.argumentHint, c.allowedTools, c.model, c.modelInvocable, c.body, c.bodyLine],
    ["Fix it", "[file]", ["Bash(git diff:*)", "Read"], "sonnet", false, "Body\n", 9],
  );
  assert.throws(
    () => command("---\ndescription: [a\n---\nx", "claude"),
    /\/p\/x\.md, line \d+: bad front matter/,
  );
  assert.throws(() => command("---\ndescription: a\nx", "claude"), /no closing "---" line/);
  assert.throws(() => command("prompt = 3\n", "gemini", "a.toml"), /has no `prompt` string/);
  assert.throws(
    () => command("prompt = \n", "gemini", "a.toml"),
    /\/p\/a\.toml, line 1 is not valid TOML/,
  );
});
