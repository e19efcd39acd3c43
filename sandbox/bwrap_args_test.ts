import assert from "node:assert/strict";
import { join } from "node:path";
import {
  bwrapArgs,
  DEFAULT_PROTECTED_NAMES,
  protectedPathsUnder,
  type SandboxPolicy,
} from "./bwrap_args.ts";
import { PLACEHOLDER_MODE } from "./placeholders.ts";

const WS = "/home/u/project";

function policy(overrides: Partial<SandboxPolicy> = {}): SandboxPolicy {
  return {
    mode: "workspace-write",
    writableRoots: [WS],
    protectedNames: [...DEFAULT_PROTECTED_NAMES],
    networkAccess: false,
    privateTmp: true,
    ...overrides,
  };
}

Deno.test("bwrapArgs() builds the full workspace-write recipe in mount order", () => {
  const argv = bwrapArgs(policy({ writableRoots: [WS, "/data/extra"] }), {
    command: ["/bin/bash", "-c", "make test"],
    cwd: WS,
    seccompFd: 3,
    existingProtectedPaths: [`${WS}/.git`, "/data/extra/.agents"],
  });
  assert.deepEqual(argv, [
    "--new-session",
    "--die-with-parent",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--unshare-pid",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    "--bind",
    WS,
    WS,
    "--bind",
    "/data/extra",
    "/data/extra",
    "--ro-bind",
    `${WS}/.git`,
    `${WS}/.git`,
    "--ro-bind",
    "/data/extra/.agents",
    "/data/extra/.agents",
    "--unshare-user",
    "--disable-userns",
    "--unshare-net",
    "--chdir",
    WS,
    "--seccomp",
    "3",
    "--",
    "/bin/bash",
    "-c",
    "make test",
  ]);
});

Deno.test("bwrapArgs() binds nothing writable in read-only mode", () => {
  const argv = bwrapArgs(policy({ mode: "read-only", privateTmp: false, networkAccess: true }), {
    command: ["ls"],
    cwd: WS,
    existingProtectedPaths: [`${WS}/.git`],
  });
  assert.deepEqual(argv, [
    "--new-session",
    "--die-with-parent",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--unshare-pid",
    "--proc",
    "/proc",
    "--unshare-user",
    "--disable-userns",
    "--chdir",
    WS,
    "--",
    "ls",
  ]);
});

Deno.test("bwrapArgs() keeps the network and omits --disable-userns when asked", () => {
  const argv = bwrapArgs(policy({ networkAccess: true }), {
    command: ["true"],
    cwd: WS,
    disableUserns: false,
  });
  assert.ok(!argv.includes("--unshare-net"));
  assert.ok(!argv.includes("--disable-userns"));
  assert.ok(argv.includes("--unshare-user"));
  assert.ok(!argv.includes("--seccomp"));
});

Deno.test("bwrapArgs() ignores protected paths outside every writable root", () => {
  const argv = bwrapArgs(policy(), {
    command: ["true"],
    cwd: WS,
    existingProtectedPaths: ["/elsewhere/.git", `${WS}-sibling/.git`],
  });
  assert.ok(!argv.some((a) => a.endsWith("/.git")));
});

Deno.test("bwrapArgs() passes the command after -- untouched", () => {
  const argv = bwrapArgs(policy(), { command: ["--ro-bind", "$HOME", "a b"], cwd: WS });
  assert.deepEqual(argv.slice(argv.indexOf("--")), ["--", "--ro-bind", "$HOME", "a b"]);
});

Deno.test("protectedPathsUnder() reports existing entries as real paths", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.mkdir(join(root, ".git"));
    await Deno.mkdir(join(root, "meta"));
    await Deno.symlink("meta", join(root, ".openinterpreter"));
    await Deno.symlink(join(root, "nothing-here"), join(root, ".agents"));
    const found = await protectedPathsUnder([root, root], DEFAULT_PROTECTED_NAMES);
    assert.deepEqual(found, [join(root, ".git"), join(root, "meta")]);
    assert.deepEqual(await protectedPathsUnder([join(root, "missing")], [".git"]), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("bwrapArgs() asks for the sandbox's pid on the run record's descriptor", () => {
  const argv = bwrapArgs(policy(), { command: ["true"], cwd: WS, seccompFd: 3, infoFd: 5 });
  assert.deepEqual(argv.slice(-6), ["--seccomp", "3", "--info-fd", "5", "--", "true"]);
  assert.ok(!bwrapArgs(policy(), { command: ["true"], cwd: WS }).includes("--info-fd"));
});

Deno.test("protectedPathsUnder() skips placeholders, which are the session's, not the user's", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.mkdir(join(root, ".agents"));
    await Deno.chmod(join(root, ".agents"), PLACEHOLDER_MODE);
    await Deno.mkdir(join(root, ".git"));
    assert.deepEqual(await protectedPathsUnder([root], DEFAULT_PROTECTED_NAMES), [
      join(root, ".git"),
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
