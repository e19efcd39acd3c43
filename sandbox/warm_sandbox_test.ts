/**
 * Sandboxes prepared ahead: the runner's protocol on its own (no bwrap needed), then under real
 * bubblewrap through `openCommandSandbox()`: a prepared sandbox runs a command as a sandbox made
 * for it would, serves exactly one command, and is discarded when what its binds protect changed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { CommandRequest } from "./command_sandbox.ts";
import { type SandboxWorkspace, sandboxWorkspace } from "./_test_workspace.ts";
import {
  type PreparedProcess,
  RUNNER_NAME,
  type WarmOptions,
  WarmSandboxes,
} from "./warm_sandbox.ts";
import { encodeRequest, warmable } from "./_warm_runner.ts";
import { PLACEHOLDER_MODE } from "./placeholders.ts";
import { need } from "./_test_requires.ts";
import { until } from "../tests/e2e/_poll.ts";

const skip = (await need("bwrap")).note;
const PYTHON = await need("python3");
const PATH = "/usr/bin:/bin";

function bwrapTest(name: string, fn: () => Promise<void>, extraSkip = ""): void {
  Deno.test({ name: `${name}${skip || extraSkip}`, ignore: skip !== "" || extraSkip !== "", fn });
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function collect(child: PreparedProcess): Promise<Ran> {
  const [stdout, stderr, status] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.status,
  ]);
  return { code: status.code, stdout, stderr };
}

Deno.test("warmable() takes only what bash can pass on unchanged", () => {
  const ok = { argv: ["bash", "-c", "x"], cwd: "/w", env: { PATH, A_1: "v\nw=x" } };
  assert.equal(warmable(ok), true);
  assert.equal(warmable({ ...ok, argv: [] }), false);
  assert.equal(warmable({ ...ok, env: { A: "1" } }), false, "no PATH to find the program");
  assert.equal(warmable({ ...ok, argv: ["a\0b"] }), false);
  assert.equal(warmable({ ...ok, env: { PATH, A: "\0" } }), false);
  for (const name of ["SHELLOPTS", "RANDOM", "EXECIGNORE", "1X", "A-B", "A.B", "_"]) {
    assert.equal(warmable({ ...ok, env: { PATH, [name]: "1" } }), false, name);
  }
});

Deno.test("encodeRequest() gives the size, the field lengths in bytes, then the fields", () => {
  const bytes = encodeRequest({ argv: ["ä", ""], cwd: "/w", env: { PATH: "/b" } });
  assert.equal(new TextDecoder().decode(bytes), "23\n4 1 2 7 2 0\n/wPATH=/bä");
});

/** Sandboxes "prepared" without bwrap: the runner itself, so its protocol can be tested alone. */
function bareRunners(opts: Partial<WarmOptions> = {}) {
  const ended: number[] = [];
  const warm = new WarmSandboxes({
    prepare: (runner) => Promise.resolve({ cmd: runner[0], args: runner.slice(1), env: {} }),
    watched: [],
    ended: () => ended.push(Date.now()),
    ...opts,
  });
  return { warm, ended };
}

const ODD = ["", " lead", "tab\there", "new\nline", "quote'\"$HOME`x`", "ünï ☃", "-n", "a=b"];

Deno.test("the runner starts exactly the argv, environment and directory it was sent", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "oi warm " });
  const { warm } = bareRunners();
  try {
    const env = { PATH, SHLVL: "7", ODD: "x\ny=z ☃", EMPTY: "" };
    const run = async (argv: string[]) => {
      const child = await warm.take({ argv, cwd, env });
      assert.ok(child, "the runner took the command");
      const ran = await collect(child);
      assert.deepEqual([ran.code, ran.stderr], [0, ""]);
      return ran.stdout;
    };
    const vars = (await run(["/usr/bin/env", "-0"])).split("\0").filter(Boolean);
    assert.deepEqual(vars.sort(), Object.entries(env).map(([k, v]) => `${k}=${v}`).sort());
    const args = await run(["/bin/sh", "-c", 'pwd -P; printf "<%s>" "$@"', "sh", ...ODD]);
    assert.equal(args, `${await Deno.realPath(cwd)}\n${ODD.map((a) => `<${a}>`).join("")}`);
  } finally {
    await warm.close();
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("the runner keeps stdout and stderr apart, passes the exit code and closes stdin", async () => {
  const { warm } = bareRunners();
  try {
    const script = 'echo out; echo err >&2; read -r line; echo "read=$? [$line]"; ' +
      'test "$(ps -o pgid= -p $$ | tr -d " ")" = "$$" && echo own-group; exit 7';
    const child = await warm.take({ argv: ["bash", "-c", script], cwd: "/", env: { PATH } });
    assert.ok(child);
    assert.deepEqual(await collect(child), {
      code: 7,
      stdout: "out\nread=1 []\nown-group\n",
      stderr: "err\n",
    });
  } finally {
    await warm.close();
  }
});

Deno.test("a prepared runner serves one command, and the next one gets a new runner", async () => {
  const { warm, ended } = bareRunners();
  try {
    const pids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const child = await warm.take({ argv: ["sh", "-c", "echo $PPID"], cwd: "/", env: { PATH } });
      assert.ok(child);
      pids.push((await collect(child)).stdout);
      assert.equal(await warm.ready(), true, "the next one is prepared once this one ended");
    }
    assert.notEqual(pids[0], pids[1], "two commands, two runners");
    assert.equal(ended.length, 0, "each one ended with another prepared to follow");
  } finally {
    await warm.close();
  }
  assert.equal(ended.length, 1, "close() ended the prepared one");
});

Deno.test("a prepared runner left unused ends after the idle time", async () => {
  const { warm, ended } = bareRunners({ idleMs: 50 });
  try {
    const child = await warm.take({ argv: ["true"], cwd: "/", env: { PATH } });
    assert.ok(child);
    await collect(child);
    assert.equal(await warm.ready(), true);
    await until("the idle runner to end", () => ended.length >= 1, 5_000);
    assert.equal(await warm.ready(), false, "none is prepared until a command asks");
  } finally {
    await warm.close();
  }
});

Deno.test("a runner whose watched paths changed after it was prepared is not used", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_warm_" });
  const watched = join(dir, "watched");
  const { warm, ended } = bareRunners({ watched: [watched] });
  try {
    const req = { argv: ["true"], cwd: "/", env: { PATH } };
    await collect((await warm.take(req))!);
    assert.equal(await warm.ready(), true);
    await Deno.mkdir(watched);
    assert.equal(await warm.take(req), undefined, "the runner prepared before the change");
    assert.equal(ended.length, 1, "it was ended");
    assert.ok(await warm.take(req), "the one prepared after the change is used");
  } finally {
    await warm.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a prepared sandbox that ended before its command came is replaced", async () => {
  let prepares = 0;
  const { warm, ended } = bareRunners({
    // The second one says it is ready, then dies.
    prepare: (runner) =>
      Promise.resolve(
        ++prepares === 2
          ? { cmd: "/bin/sh", args: ["-c", "echo oi-ready"], env: {} }
          : { cmd: runner[0], args: runner.slice(1), env: {} },
      ),
  });
  try {
    const req = { argv: ["echo", "ran"], cwd: "/", env: { PATH } };
    assert.equal((await collect((await warm.take(req))!)).stdout, "ran\n");
    await until("the dead sandbox to be noticed", () => ended.length >= 1 && prepares >= 3, 5_000);
    const child = await warm.take(req);
    assert.ok(child, "the one prepared after it took the command");
    assert.equal((await collect(child)).stdout, "ran\n");
  } finally {
    await warm.close();
  }
});

Deno.test("a placeholder made while preparing is fine; any other change is not", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_warm_" });
  const path = join(dir, ".agents");
  const placeholder = async () => {
    await Deno.remove(path, { recursive: true }).catch(() => {});
    await Deno.mkdir(path);
    await Deno.chmod(path, PLACEHOLDER_MODE);
  };
  const plain = async () => {
    await Deno.remove(path, { recursive: true }).catch(() => {});
    await Deno.mkdir(path);
  };
  const link = async () => {
    await Deno.mkdir(join(dir, "elsewhere"), { recursive: true });
    await Deno.symlink(join(dir, "elsewhere"), path);
  };
  const cases = [
    ["missing", () => Promise.resolve(), placeholder, true],
    ["a placeholder", placeholder, placeholder, true],
    ["a placeholder", placeholder, plain, false],
    ["missing", () => Promise.resolve(), plain, false],
    ["a symlink", link, placeholder, false],
  ] as const;
  try {
    for (const [was, before, during, usable] of cases) {
      await Deno.remove(path, { recursive: true }).catch(() => {});
      await before();
      const { warm } = bareRunners({
        watched: [path],
        prepare: async (runner) => {
          await during(); // what the guard's cover() does, or someone else
          return { cmd: runner[0], args: runner.slice(1), env: {} };
        },
      });
      try {
        const child = await warm.take({ argv: ["true"], cwd: "/", env: { PATH } });
        if (child) await collect(child);
        assert.equal(child !== undefined, usable, `${was}, then ${during.name}`);
      } finally {
        await warm.close();
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the next sandbox is prepared after a command, or beside it in a burst", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_warm_burst_" });
  let prepared = 0;
  const { warm } = bareRunners({
    prepare: (runner) => {
      prepared++;
      return Promise.resolve({ cmd: runner[0], args: runner.slice(1), env: {} });
    },
  });
  // A command that says it started, then runs until the test lets it end.
  const start = async (name: string) => {
    const script = `touch ${name}.started; while [ ! -f ${name}.go ]; do sleep 0.01; done`;
    const child = await warm.take({ argv: ["sh", "-c", script], cwd: dir, env: { PATH } });
    assert.ok(child);
    await until(`${name} to start`, () => exists(join(dir, `${name}.started`)));
    return async () => {
      await Deno.writeTextFile(join(dir, `${name}.go`), "");
      await collect(child);
    };
  };
  try {
    // The first had to wait for its sandbox, as in a burst: the next is prepared beside it.
    const endFirst = await start("first");
    await until("the second sandbox to be prepared while the first ran", () => prepared === 2);
    await endFirst();
    // This one's sandbox was ready: the next is prepared only once it has ended.
    assert.equal(await warm.ready(), true);
    const endSecond = await start("second");
    assert.equal(prepared, 2, "the third sandbox was prepared while the second ran");
    await endSecond();
    assert.equal(await warm.ready(), true);
    assert.equal(prepared, 3);
  } finally {
    await warm.close();
    await Deno.remove(dir, { recursive: true });
  }
});

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("close() ends a sandbox still being prepared at once", async () => {
  let prepares = 0;
  const { warm, ended } = bareRunners({
    // The second one never says it is ready.
    prepare: (runner) =>
      Promise.resolve(
        ++prepares === 2
          ? { cmd: "/bin/sleep", args: ["60"], env: {} }
          : { cmd: runner[0], args: runner.slice(1), env: {} },
      ),
  });
  await collect((await warm.take({ argv: ["true"], cwd: "/", env: { PATH } }))!);
  await until("the next sandbox to be prepared", () => prepares >= 2, 5_000);
  const started = Date.now();
  await warm.close();
  assert.ok(Date.now() - started < 5_000, `close() took ${Date.now() - started} ms`);
  assert.equal(ended.length, 1);
});

Deno.test("requests the runner cannot pass on exactly prepare nothing", async () => {
  const { warm, ended } = bareRunners();
  try {
    assert.equal(
      await warm.take({ argv: ["true"], cwd: "/", env: { PATH, RANDOM: "4" } }),
      undefined,
    );
    assert.equal(await warm.ready(), false);
  } finally {
    await warm.close();
  }
  assert.equal(ended.length, 0);
});

// Under real bubblewrap, through the session's command sandbox.

type Session = SandboxWorkspace;

const session = (setup?: (ws: string) => Promise<void>) => sandboxWorkspace("oi_warm_", setup);

/** What a fresh private /tmp holds: the way to this test's Deno, when that lies under /tmp. */
const RUNTIME = await Deno.realPath(Deno.execPath());
const RUNTIME_IN_TMP = RUNTIME.startsWith("/tmp/") ? [RUNTIME.split("/")[2]] : [];

function request(s: Session, script: string): CommandRequest {
  return { argv: ["/bin/bash", "-c", script], cwd: s.ws, env: { PATH } };
}

/** Runs `script` in the sandbox prepared for it, checking that it was. */
async function prepared(s: Session, script: string): Promise<Ran> {
  const child = await s.sandbox.spawn?.(request(s, script));
  assert.ok(child, "a prepared sandbox took the command");
  return await collect(child);
}

/** Runs `script` as `shell.run` does: in the prepared sandbox when it is there for it. */
async function anyway(s: Session, script: string): Promise<Ran> {
  const child = await s.sandbox.spawn?.(request(s, script));
  return child ? await collect(child) : await made(s, script);
}

async function made(s: Session, script: string): Promise<Ran> {
  const spec = await s.sandbox.wrap(request(s, script));
  const child = new Deno.Command(spec.cmd, {
    args: spec.args,
    cwd: s.ws,
    clearEnv: true,
    env: spec.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return await collect(child);
}

const PORTRAIT = [
  "env -0 | sort -z | tr '\\0' '\\n'",
  "pwd; id; echo pid=$$; umask; ulimit -a",
  "grep -E '^(Cap|NoNewPrivs|Seccomp|SigBlk)' /proc/self/status",
  "ls -A /tmp /dev/shm; ls /dev",
  "echo x > .git/x; echo x > ../x; echo x > /tmp/x && echo tmp-ok; echo err >&2",
  "trap -p; echo $- ; exit 3",
].join("; ");

bwrapTest("a prepared sandbox runs a command as a sandbox made for it does", async () => {
  await using s = await session(async (ws) => await Deno.mkdir(join(ws, ".git")));
  const ours = await prepared(s, PORTRAIT);
  const theirs = await made(s, PORTRAIT);
  assert.deepEqual(ours, theirs);
  // Every disposition is the default (`env --default-signal` before the launcher, and the
  // detached spawn for the two glibc signals Deno ignores; `made` above is not spawned detached),
  // even when the agent was started with SIGQUIT ignored (default_signals_test.ts).
  const ignored = await prepared(s, "grep SigIgn /proc/self/status");
  assert.equal(ignored.stdout, "SigIgn:\t0000000000000000\n");
  assert.equal(ours.code, 3);
  assert.match(ours.stdout, /tmp-ok/);
  assert.match(ours.stderr, /Read-only file system[^]*Read-only file system[^]*err/);
  const pid1 = await prepared(s, "tr '\\0' ' ' < /proc/1/cmdline");
  assert.match(pid1.stdout, new RegExp(RUNNER_NAME), "the command ran in a prepared sandbox");
});

bwrapTest(
  "each command gets a fresh sandbox: files in /tmp and processes do not carry over",
  async () => {
    await using s = await session();
    const first = await prepared(s, "echo x > /tmp/left; sleep 300 & echo started; ls /tmp");
    const listed = ["left", ...RUNTIME_IN_TMP].sort().join("\n");
    assert.equal(first.stdout, `started\n${listed}\n`, "within one command /tmp keeps the file");
    const next = await prepared(s, "ls -A /tmp; ps -e -o comm=");
    const rest = [...RUNTIME_IN_TMP, "bash", "ps"].join("\n");
    assert.equal(next.stdout, `${rest}\n`, "no file and no sleep from the earlier command");
  },
);

bwrapTest("a port bound by one command is free in the next", async () => {
  await using s = await session();
  const serve = "import socket; s = socket.socket(); s.bind(('127.0.0.1', 47000)); s.listen(); " +
    "c = socket.create_connection(('127.0.0.1', 47000)); a, _ = s.accept(); a.close(); " +
    "c.close(); s.close(); print('bound')";
  const first = await prepared(s, `python3 -c "${serve}"`);
  assert.equal(first.stdout, "bound\n", first.stderr);
  const again = await prepared(s, `python3 -c "${serve}"`);
  assert.equal(again.stdout, "bound\n", `no TIME_WAIT left in a fresh sandbox: ${again.stderr}`);
}, PYTHON.note);

for (
  const [what, change] of [
    ["retargeted", (ws: string) => swapLink(join(ws, ".git"), join(ws, "git-b"))],
    ["removed and made again", async (ws: string) => {
      await Deno.remove(join(ws, ".git"));
      await Deno.mkdir(join(ws, ".git"));
    }],
  ] as const
) {
  bwrapTest(`a protected .git ${what} after preparation stays read-only`, async () => {
    await using s = await session(async (ws) => {
      // Targets inside the workspace, writable unless bound read-only as the .git they are.
      await Deno.mkdir(join(ws, "git-a"));
      await Deno.mkdir(join(ws, "git-b"));
      if (what === "retargeted") await Deno.symlink(join(ws, "git-a"), join(ws, ".git"));
      else await Deno.mkdir(join(ws, ".git"));
    });
    await prepared(s, "true");
    assert.equal(await s.sandbox.prepared?.(), true);
    await change(s.ws);
    const out = await anyway(s, "echo x > .git/planted");
    assert.match(out.stderr, /Read-only file system/);
    assert.notEqual(out.code, 0);
    const planted = await Deno.realPath(join(s.ws, ".git")).then((git) => join(git, "planted"));
    assert.equal(await Deno.lstat(planted).catch(() => null), null);
  });
}

async function swapLink(link: string, target: string): Promise<void> {
  await Deno.remove(link);
  await Deno.symlink(target, link);
}

bwrapTest("escalated requests never run in a prepared sandbox", async () => {
  await using s = await session();
  assert.equal(await s.sandbox.spawn?.({ ...request(s, "true"), escalated: true }), undefined);
});
