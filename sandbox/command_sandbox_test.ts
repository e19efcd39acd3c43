/**
 * The session's command sandbox under real bubblewrap: protected names that do not exist cannot
 * be created, the placeholders that protect them leave nothing behind, a running command keeps
 * its protection while others end, and socket pairs for child stdio still work under seccomp.
 * Workspaces lie outside /tmp: every command has a private /tmp, where an escape would not show.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type CommandSandbox, describePolicy, openCommandSandbox } from "./command_sandbox.ts";
import { DEFAULT_PROTECTED_NAMES } from "./bwrap_args.ts";
import { isPlaceholder, PLACEHOLDER_MODE } from "./placeholders.ts";
import { REVOKED_EXIT_CODE } from "./run_record.ts";
import { type SandboxWorkspace, sandboxWorkspace } from "./_test_workspace.ts";
import { need } from "./_test_requires.ts";
import { until } from "../tests/e2e/_poll.ts";

const skip = (await need("bwrap")).note;
const NODE = await need("node");

function bwrapTest(name: string, fn: () => Promise<void>, extraSkip = ""): void {
  Deno.test({ name: `${name}${skip || extraSkip}`, ignore: skip !== "" || extraSkip !== "", fn });
}

type Workspace = SandboxWorkspace;

const workspace = () => sandboxWorkspace("oi_cs_");

/** Spawns `script` under the sandbox (or bare) with piped stdio. */
async function spawn(w: Workspace, script: string, bare = false): Promise<Deno.ChildProcess> {
  const req = { argv: ["/bin/sh", "-c", script], cwd: w.ws, env: { PATH: "/usr/bin:/bin" } };
  const spec = bare
    ? { cmd: req.argv[0], args: req.argv.slice(1), env: req.env }
    : await w.sandbox.wrap(req);
  return new Deno.Command(spec.cmd, {
    args: spec.args,
    cwd: w.ws,
    env: spec.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

async function run(w: Workspace, script: string, bare = false) {
  const child = await spawn(w, script, bare);
  await child.stdin.close();
  const out = await child.output();
  const text = new TextDecoder();
  return { code: out.code, output: text.decode(out.stdout) + text.decode(out.stderr) };
}

/**
 * Waits until the sandbox has removed its placeholders: a command's sandbox is gone a moment
 * after the command itself (its init reaps the rest first), so this polls, with a deadline.
 */
async function reclaimed(sandbox: CommandSandbox): Promise<void> {
  await until(
    "the placeholders to be removed",
    async () => await (sandbox.reclaim?.() ?? true),
    10_000,
  );
}

const ATTEMPTS = [
  "mkdir .git",
  "git init -q .",
  "mkdir -p .openinterpreter && echo x > .openinterpreter/config.toml",
  "mkdir -p .agents/skills/x",
  "ln -s elsewhere .agents",
  "rmdir .git; mkdir .git/hooks",
  "mv .agents gone; mkdir .agents",
  "chmod u+w .openinterpreter; touch .openinterpreter/config.toml",
];

bwrapTest(
  "wrap() keeps missing protected names from being created and leaves no trace",
  async () => {
    await using w = await workspace();
    for (const attempt of ATTEMPTS) {
      const out = await run(w, attempt);
      assert.notEqual(out.code, 0, `${attempt} must fail: ${out.output}`);
      await reclaimed(w.sandbox);
      assert.deepEqual(await w.names(), [], `${attempt} left something on the host`);
    }
    const write = await run(w, "echo hi > notes.txt && cat notes.txt");
    assert.equal(write.output, "hi\n");
    await reclaimed(w.sandbox);
    assert.deepEqual(await w.names(), ["notes.txt"]);
    // Control: without the sandbox the same commands do create them.
    for (const attempt of ATTEMPTS.slice(0, 4)) await run(w, attempt, true);
    assert.deepEqual(await w.names(), [".agents", ".git", ".openinterpreter", "notes.txt"]);
  },
);

bwrapTest("wrap() placeholders are invisible to git, in a repository and below it", async () => {
  await using repo = await workspace();
  const init = "git init -q . && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m i";
  assert.equal((await run(repo, init, true)).code, 0);
  const root = await run(repo, "test -d .agents && git status --short --untracked-files=all");
  assert.deepEqual([root.code, root.output], [0, ""], "no untracked .agents or .openinterpreter");
  const sub = join(repo.ws, "sub");
  await Deno.mkdir(sub);
  const sandbox = await openCommandSandbox({
    mode: "workspace-write",
    writableRoots: [sub],
    networkAccess: false,
  });
  try {
    const w = { ...repo, ws: sub, sandbox };
    const out = await run(w, "test -d .git && git rev-parse --show-toplevel && git status --short");
    assert.deepEqual([out.code, out.output], [0, `${repo.ws}\n`], "git looks past the empty .git");
  } finally {
    await sandbox.close();
  }
  assert.deepEqual(await Array.fromAsync(Deno.readDir(sub)), []);
});

bwrapTest("a running command keeps its protection after another command ends", async () => {
  await using w = await workspace();
  // A: a background job that waits for a line, then tries to plant a skill.
  const a = await spawn(w, "echo ready; read go; mkdir -p .agents/skills/x && echo planted");
  const lines = a.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assert.equal((await lines.read()).value, "ready\n");
  const b = await run(w, "echo b > b.txt");
  assert.equal(b.code, 0, b.output);
  const kept = await w.sandbox.reclaim?.();
  const stayed = await isPlaceholder(join(w.ws, ".agents"));
  const writer = a.stdin.getWriter();
  await writer.write(new TextEncoder().encode("go\n"));
  await writer.close();
  let rest = "";
  for (let chunk = await lines.read(); !chunk.done; chunk = await lines.read()) rest += chunk.value;
  const status = await a.status;
  const err = await new Response(a.stderr).text();
  assert.doesNotMatch(rest, /planted/, err);
  assert.notEqual(status.code, 0);
  assert.equal(kept, false, "A still ran: its placeholders had to stay");
  assert.ok(stayed, "the placeholder stayed on the host while A ran");
  await reclaimed(w.sandbox);
  assert.deepEqual(await w.names(), ["b.txt"]);
});

bwrapTest("a command wrapped but started only after close() does not run", async () => {
  await using w = await workspace();
  const spec = await w.sandbox.wrap({
    argv: ["/bin/sh", "-c", "mkdir .agents; echo ran > ran.txt"],
    cwd: w.ws,
    env: { PATH: "/usr/bin:/bin" },
  });
  await w.sandbox.close();
  assert.deepEqual(await w.names(), [], "close() removes the placeholders");
  const out = await new Deno.Command(spec.cmd, { args: spec.args, env: spec.env, clearEnv: true })
    .output();
  assert.equal(out.code, REVOKED_EXIT_CODE, new TextDecoder().decode(out.stderr));
  assert.deepEqual(await w.names(), []);
});

bwrapTest("openCommandSandbox() removes placeholders a crashed session left", async () => {
  const parent = Deno.env.get("HOME") ?? "/var/tmp";
  const ws = await Deno.realPath(await Deno.makeTempDir({ dir: parent, prefix: "oi_cs_" }));
  try {
    for (const name of [".git", ".agents"]) {
      await Deno.mkdir(join(ws, name));
      await Deno.chmod(join(ws, name), PLACEHOLDER_MODE);
    }
    await Deno.mkdir(join(ws, ".openinterpreter"));
    const sandbox = await openCommandSandbox({
      mode: "workspace-write",
      writableRoots: [ws],
      networkAccess: false,
    });
    await sandbox.close();
    const left = await Array.fromAsync(Deno.readDir(ws), (e) => e.name);
    assert.deepEqual(left, [".openinterpreter"], "an empty folder with another mode is the user's");
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

bwrapTest("sandboxed Node child processes still get their stdio socket pairs", async () => {
  await using w = await workspace();
  const script = "const { execFileSync } = require('node:child_process');" +
    "process.stdout.write(execFileSync('echo', ['child-ok']));" +
    "require('node:child_process').spawn('cat', { stdio: ['pipe', 'inherit', 'inherit'] })" +
    ".stdin.end('piped-ok\\n');";
  const out = await run(w, `node -e "${script}"`);
  assert.equal(out.output, "child-ok\npiped-ok\n");
  assert.equal(out.code, 0);
}, NODE.note);

bwrapTest("sandboxed Deno subprocesses still work", async () => {
  await using w = await workspace();
  const code = "const o = await new Deno.Command('echo', { args: ['deno-child-ok'] }).output();" +
    "await Deno.stdout.write(o.stdout);";
  const deno = Deno.execPath();
  const out = await run(w, `'${deno}' eval --quiet --no-config "${code}"`);
  assert.equal(out.output.trim().split("\n").at(-1), "deno-child-ok", out.output);
  assert.equal(out.code, 0);
});

bwrapTest("the agent's own program under /tmp stays runnable, read-only, and alone", async () => {
  await using w = await workspace();
  const dir = await Deno.realPath(await Deno.makeTempDir({ dir: "/tmp", prefix: "oi_runtime_" }));
  const [runtime, other] = [join(dir, "runtime"), join(dir, "other")];
  for (const path of [runtime, other]) {
    await Deno.writeTextFile(path, "#!/bin/sh\necho ran\n");
    await Deno.chmod(path, 0o755);
  }
  const sandbox = await openCommandSandbox({
    mode: "workspace-write",
    writableRoots: [w.ws],
    networkAccess: false,
    runtimePath: runtime,
  });
  try {
    const sandboxed = { ...w, sandbox };
    assert.deepEqual(await run(sandboxed, `'${runtime}'`), { code: 0, output: "ran\n" });
    const write = await run(sandboxed, `echo x >> '${runtime}'`);
    assert.notEqual(write.code, 0, "the runtime is read-only");
    assert.equal(await Deno.readTextFile(runtime), "#!/bin/sh\necho ran\n");
    const hidden = await run(sandboxed, `'${other}'`);
    assert.equal(hidden.code, 127, `the rest of /tmp stays private: ${hidden.output}`);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("describePolicy() names what stays read-only, whether it exists or not", () => {
  const base = {
    writableRoots: ["/w/a", "/w/b"],
    protectedNames: [...DEFAULT_PROTECTED_NAMES],
    networkAccess: false,
    privateTmp: true,
  };
  assert.equal(
    describePolicy({ ...base, mode: "workspace-write" }),
    "workspace-write: writes only to /w/a, /w/b; in each, .git, .agents and .openinterpreter " +
      "are read-only and cannot be created, and other agents' setup files (.claude, .gemini and " +
      "7 more) are read-only; private /tmp; network off",
  );
  assert.equal(
    describePolicy({ ...base, mode: "workspace-write", protectedNames: [".git"] }),
    "workspace-write: writes only to /w/a, /w/b; in each, .git is read-only and cannot be " +
      "created; private /tmp; network off",
  );
  assert.equal(
    describePolicy({ ...base, mode: "read-only", privateTmp: false, networkAccess: true }),
    "read-only: no writes; network on",
  );
});
