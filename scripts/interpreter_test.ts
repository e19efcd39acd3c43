import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { DENO_PERMISSION_FLAGS } from "../sandbox/deno_flags.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const PERMISSIONS = ["read", "write", "env", "net", "run", "sys", "ffi"] as const;

/** Stands in for main.ts: reports what the launcher gave it. */
const PROBE_MAIN = `
const perms = {};
for (const name of ${
  JSON.stringify(PERMISSIONS)
}) perms[name] = Deno.permissions.querySync({ name }).state;
const ffiRequest = Deno.permissions.requestSync({ name: "ffi" }).state;
const updateCheck = Deno.env.get("DENO_NO_UPDATE_CHECK") ?? null;
console.log(JSON.stringify({ args: Deno.args, cwd: Deno.cwd(), perms, ffiRequest, updateCheck }));
`;

interface Checkout extends AsyncDisposable {
  root: string;
  launcher: string;
}

/** A copy of the launcher's files with a probe main.ts; `pinned` links the pinned deno in. */
async function fakeCheckout(opts: { pinned: boolean }): Promise<Checkout> {
  const root = await Deno.makeTempDir({ prefix: "interpreter_launcher_" });
  await Deno.mkdir(`${root}/scripts/deno/node_modules/.bin`, { recursive: true });
  await Deno.mkdir(`${root}/sandbox`);
  for (const file of ["scripts/interpreter", "scripts/_deno.sh", "sandbox/deno_flags.json"]) {
    await Deno.copyFile(`${REPO}/${file}`, `${root}/${file}`);
  }
  await Deno.symlink("interpreter", `${root}/scripts/i`);
  await Deno.writeTextFile(`${root}/deno.json`, "{}\n");
  await Deno.writeTextFile(`${root}/main.ts`, PROBE_MAIN);
  if (opts.pinned) {
    await Deno.symlink(Deno.execPath(), `${root}/scripts/deno/node_modules/.bin/deno`);
  }
  return {
    root,
    launcher: `${root}/scripts/interpreter`,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

/** A PATH directory holding only the named programs (symlinks to the real ones). */
async function pathWith(dir: string, programs: Record<string, string>): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  for (const [name, target] of Object.entries(programs)) {
    await Deno.symlink(target, `${dir}/${name}`);
  }
  return dir;
}

async function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
) {
  const out = await new Deno.Command(cmd, {
    args,
    cwd: opts.cwd,
    env: opts.env,
    clearEnv: opts.env !== undefined,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(30_000),
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

function granted(flags: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    PERMISSIONS.map((name) => [name, flags.includes(`--allow-${name}`) ? "granted" : "prompt"]),
  );
}

Deno.test("scripts/interpreter runs main.ts with the sandbox flags through a symlink, from any cwd", async () => {
  await using checkout = await fakeCheckout({ pinned: true });
  const elsewhere = await Deno.makeTempDir();
  try {
    await Deno.symlink(`${checkout.root}/scripts/i`, `${elsewhere}/interp`);
    const args = ["exec", "hello world", "--flag", ""];
    const out = await run(`${elsewhere}/interp`, args, { cwd: elsewhere });
    assert.equal(out.code, 0, out.stderr);
    const report = JSON.parse(out.stdout);
    assert.deepEqual(report.args, args);
    assert.equal(report.cwd, await Deno.realPath(elsewhere));
    assert.deepEqual(report.perms, granted(DENO_PERMISSION_FLAGS));
    assert.equal(report.ffiRequest, "denied");
  } finally {
    await Deno.remove(elsewhere, { recursive: true });
  }
});

Deno.test("scripts/interpreter turns Deno's update check off, so a start contacts no one", async () => {
  await using checkout = await fakeCheckout({ pinned: true });
  const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
  const out = await run(checkout.launcher, [], { cwd: checkout.root, env });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(JSON.parse(out.stdout).updateCheck, "1");
  // Control: the same probe run by deno itself, in the same environment, sees no such variable.
  const direct = await run(Deno.execPath(), ["run", "-A", `${checkout.root}/main.ts`], { env });
  assert.equal(direct.code, 0, direct.stderr);
  assert.equal(JSON.parse(direct.stdout).updateCheck, null);
});

Deno.test({
  name: "scripts/interpreter never prompts for a permission even on a terminal",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using checkout = await fakeCheckout({ pinned: true });
    // util-linux `script` gives the child a pseudo-terminal, where Deno would otherwise prompt.
    const out = await run("timeout", [
      "20",
      "script",
      "-qec",
      `${checkout.launcher} x`,
      "/dev/null",
    ], {
      cwd: checkout.root,
    });
    assert.equal(out.code, 0, `exit ${out.code}: ${out.stdout}${out.stderr}`);
    assert.match(out.stdout, /"ffiRequest":"denied"/);
  },
});

Deno.test("scripts/interpreter uses deno from PATH when the pinned one is not installed", async () => {
  await using checkout = await fakeCheckout({ pinned: false });
  const bin = await pathWith(`${checkout.root}/bin`, {
    deno: Deno.execPath(),
    sed: "/usr/bin/sed",
    readlink: "/usr/bin/readlink",
  });
  const out = await run("/bin/bash", [checkout.launcher, "a"], { env: { PATH: bin } });
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout).args, ["a"]);
});

Deno.test("scripts/interpreter installs the pinned deno with npm ci when there is no deno", async () => {
  await using checkout = await fakeCheckout({ pinned: false });
  // A stub npm that "installs" by linking the real deno where the package would put it.
  const bin = await pathWith(`${checkout.root}/bin`, { sed: "/usr/bin/sed", ln: "/bin/ln" });
  await Deno.writeTextFile(
    `${bin}/npm`,
    `#!/bin/bash\necho "npm $*" >> "${checkout.root}/npm.log"\necho "added 1 package"\n` +
      `ln -s "${Deno.execPath()}" "$3/node_modules/.bin/deno"\n`,
  );
  await Deno.chmod(`${bin}/npm`, 0o755);
  const out = await run("/bin/bash", [checkout.launcher, "a"], { env: { PATH: bin } });
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout).args, ["a"], "npm output must not reach stdout");
  assert.match(out.stderr, /added 1 package/);
  assert.equal(
    await Deno.readTextFile(`${checkout.root}/npm.log`),
    `npm ci --prefix ${checkout.root}/scripts/deno --no-audit --no-fund\n`,
  );
});

Deno.test("scripts/interpreter exits 2 when npm cannot install deno", async () => {
  await using checkout = await fakeCheckout({ pinned: false });
  const bin = await pathWith(`${checkout.root}/bin`, { sed: "/usr/bin/sed", npm: "/bin/false" });
  const out = await run("/bin/bash", [checkout.launcher, "a"], { env: { PATH: bin } });
  assert.equal(out.code, 2);
  assert.match(out.stderr, /^error: Cannot install Deno with "npm ci --prefix scripts\/deno"$/m);
  assert.equal(out.stdout, "");
});

Deno.test("scripts/interpreter exits 2 with error and hint lines when neither deno nor npm exists", async () => {
  await using checkout = await fakeCheckout({ pinned: false });
  const bin = await pathWith(`${checkout.root}/bin`, { sed: "/usr/bin/sed" });
  const out = await run("/bin/bash", [checkout.launcher, "a"], { env: { PATH: bin } });
  assert.equal(out.code, 2);
  assert.match(out.stderr, /^error: Deno is not installed and npm is not available/m);
  assert.match(out.stderr, /^hint: install Node.js/m);
  assert.equal(out.stdout, "");
});

Deno.test("scripts/interpreter refuses a deno_flags.json it cannot read line by line", async () => {
  await using checkout = await fakeCheckout({ pinned: true });
  await Deno.writeTextFile(`${checkout.root}/sandbox/deno_flags.json`, '["--no-prompt", "-A"]\n');
  const out = await run(checkout.launcher, ["a"]);
  assert.equal(out.code, 2);
  assert.match(
    out.stderr,
    /^error: Cannot read "sandbox\/deno_flags.json": expected "--no-prompt" first$/m,
  );
  assert.equal(out.stdout, "");
});
