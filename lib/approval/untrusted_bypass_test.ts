/**
 * The six ways past `untrusted` an attack review found (issue 7, item 5): each ran with no
 * approval asked, unsandboxed under danger-full-access. Each case has a control that runs the
 * same command for real in a temp folder and sees it write a file or run a program, so the
 * regression test guards a command that is really dangerous.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { approvalHook } from "./hook.ts";
import { resolveCall } from "../harness/call.ts";
import { loadHarnessDir } from "../harness/load.ts";
import { shellArgs, type shellRunInput } from "../tools/shell_run.ts";
import type * as z from "zod";

const NATIVE = fileURLToPath(new URL("../../harnesses/native", import.meta.url));

/** The hook of danger-full-access with approval_policy untrusted, where no one can be asked. */
function untrustedFullAccess() {
  return approvalHook({
    policy: "untrusted",
    sandbox: { mode: "danger-full-access", enforced: false },
    mutates: () => true,
  });
}

async function verdictFor(command: string, extra: Record<string, unknown> = {}) {
  const input = { command, ...extra };
  return await untrustedFullAccess()({ name: "Bash" }, { capability: "shell.run", input });
}

/** Runs `script` with bash in `dir`, with a private HOME and no system git config. */
async function bash(dir: string, script: string): Promise<string> {
  const out = await new Deno.Command("bash", {
    args: ["-c", script],
    cwd: dir,
    env: { HOME: dir, GIT_CONFIG_NOSYSTEM: "1" },
    stdin: "null",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.ok(out.success, `bash -c ${JSON.stringify(script)} failed:\n${text}`);
  return text;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** A temp folder holding `files` (path → text), removed on dispose. */
async function tempDir(files: Record<string, string> = {}) {
  const dir = await Deno.makeTempDir({ prefix: "oi_approval_" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  return {
    dir,
    read: (path: string) => Deno.readTextFile(join(dir, path)),
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

const GIT_REPO = "git init -q && echo a > a && git add a && " +
  "git -c user.name=t -c user.email=t@t commit -qm first";

Deno.test("approvalHook() asks before a find whose braces expand to -exec", async () => {
  const command = "find . -maxdepth 0 {-exec,touch} x {} +";
  assert.equal((await verdictFor(command)).allow, false);
  await using ws = await tempDir();
  await bash(ws.dir, command);
  assert.ok(await exists(join(ws.dir, "x")), "control: the braces ran touch through -exec");
});

Deno.test("approvalHook() asks before a sed whose braces expand to -i", async () => {
  const command = "sed -n 1p {-i,file}";
  assert.equal((await verdictFor(command)).allow, false);
  await using ws = await tempDir({ file: "one\ntwo\n" });
  await bash(ws.dir, command);
  assert.equal(await ws.read("file"), "one\n", "control: sed edited the file in place");
});

Deno.test("approvalHook() asks before git log whose braces expand to --output", async () => {
  for (const command of ["git log {--output=x,-1}", "git log -1 {--output,x}"]) {
    assert.equal((await verdictFor(command)).allow, false, command);
    await using ws = await tempDir();
    await bash(ws.dir, `${GIT_REPO} && ${command}`);
    assert.ok(await exists(join(ws.dir, "x")), `control: ${command} wrote x`);
  }
});

Deno.test("approvalHook() asks before git status, which runs the repository's fsmonitor", async () => {
  assert.equal((await verdictFor("git status")).allow, false);
  await using ws = await tempDir({ "fsm.sh": "#!/bin/sh\necho ran > marker\nexit 1\n" });
  await bash(ws.dir, `${GIT_REPO} && chmod +x fsm.sh && git config core.fsmonitor ./fsm.sh`);
  await bash(ws.dir, "git status --short");
  assert.equal(await ws.read("marker"), "ran\n", "control: git status ran core.fsmonitor");
});

Deno.test("approvalHook() asks before uniq with an output operand", async () => {
  assert.equal((await verdictFor("uniq IN OUT")).allow, false);
  await using ws = await tempDir({ IN: "a\na\n" });
  await bash(ws.dir, "uniq IN OUT");
  assert.equal(await ws.read("OUT"), "a\n", "control: uniq wrote its second operand");
});

Deno.test("approvalHook() asks before a program path named like a safe program", async () => {
  assert.equal((await verdictFor("path/to/cat a")).allow, false);
  assert.equal((await verdictFor("./cat a")).allow, false);
  await using ws = await tempDir({ "path/to/cat": "#!/bin/sh\necho ran > marker\n" });
  await bash(ws.dir, "chmod +x path/to/cat && path/to/cat a");
  assert.equal(await ws.read("marker"), "ran\n", "control: path/to/cat is not cat");
});

Deno.test("approvalHook() asks before exec_command with a shell parameter", async () => {
  const harness = await loadHarnessDir(NATIVE);
  const call = { name: "exec_command", args: { cmd: "ls", shell: "tools/evil" } };
  const resolved = resolveCall(harness, call);
  const verdict = await untrustedFullAccess()(call, {
    capability: resolved.capability.id,
    input: resolved.input,
  });
  assert.equal(verdict.allow, false);
  assert.match(!verdict.allow ? verdict.reason : "", /No one is available to approve exec_command/);
  await using ws = await tempDir({ "tools/evil": "#!/bin/sh\necho ran > marker\n" });
  const input = resolved.input as z.infer<typeof shellRunInput>;
  const shell = input.shell ?? "bash";
  const argv = [shell, ...shellArgs(shell, input.login ?? false), input.command];
  await bash(ws.dir, `chmod +x tools/evil && ${argv.map((w) => `'${w}'`).join(" ")}`);
  assert.equal(await ws.read("marker"), "ran\n", "control: the call ran tools/evil, not ls");
});
