/**
 * Where eval runs what a task names: its `setup`, its check and a Harbor task's `tests/test.sh`.
 * They run on files the agent wrote (a planted `conftest.py` runs with `pytest`), so always in the
 * project's command sandbox under bubblewrap, whatever `-s` says (`openCheckSandbox()`): the copy
 * and its HOME writable (the copy's `.git` read-only), the rest of the host read-only, the network
 * off unless asked for, the environment filtered as for the agent's own commands. A Harbor test
 * also gets the trial's `verifier/` folder writable at `/logs/verifier` and the task's tests
 * read-only at `/tests`.
 */
import { agentCommandEnvironment, openCheckSandbox } from "../../session/eval_sandboxes.ts";
import { type Finished, runToEnd } from "../../session/run_to_end.ts";

/** One command to run in the sandbox. */
export interface SandboxedRun {
  argv: string[];
  /** The working directory, inside a writable folder. */
  cwd: string;
  /** The folders the command may write: the copy and its HOME. */
  writable: string[];
  network: boolean;
  /** The command's whole environment. */
  env: Record<string, string>;
  /** A Harbor test's extra folders. */
  harbor?: HarborMounts;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The folders a Harbor test finds at its fixed paths. */
export interface HarborMounts {
  /** Bound writable at `/logs/verifier`. */
  verifierDir: string;
  /** Bound read-only at `/tests`. */
  testsDir: string;
}

/** Runs `run` in a new sandbox; refuses (a `UserError`) where bubblewrap cannot confine it. */
export async function runSandboxed(run: SandboxedRun): Promise<Finished> {
  await using sandbox = await openCheckSandbox(run.env, {
    writable: run.writable,
    network: run.network,
  });
  const spec = await sandbox.wrap({ argv: run.argv, cwd: run.cwd, env: run.env });
  const args = run.harbor ? withHarborMounts(spec.args, run.harbor, rootEntries()) : spec.args;
  return await runToEnd(spec.cmd, args, {
    cwd: run.cwd,
    env: spec.env,
    clearEnv: true,
    timeoutMs: run.timeoutMs,
    signal: run.signal,
  });
}

/** Throws the reason eval cannot start when bubblewrap cannot confine its commands here. */
export async function requireBubblewrap(env: Record<string, string>): Promise<void> {
  await using _ = await openCheckSandbox(env, { writable: [], network: false });
}

/**
 * The environment of a job's setup and check commands: the one `[shell_environment_policy]`
 * gives the agent's commands in `cwd` (no variable named like a key, secret or token unless the
 * policy says so), under the config of `execFlags` (`-c`, `--profile`).
 */
export async function checkEnvironment(
  cwd: string,
  opts: { env: Record<string, string>; execFlags: string[] },
): Promise<Record<string, string>> {
  const overrides: string[] = [];
  let profile: string | undefined;
  opts.execFlags.forEach((flag, i) => {
    if (flag === "-c") overrides.push(opts.execFlags[i + 1]);
    if (flag === "--profile") profile = opts.execFlags[i + 1];
  });
  return await agentCommandEnvironment(cwd, { env: opts.env, overrides, profile });
}

/**
 * `args` (a sandbox launcher's argv) with bubblewrap's read-only bind of `/` replaced by a
 * read-only root of the same entries plus the Harbor folders, which need mount points `/` lacks.
 */
export function withHarborMounts(
  args: string[],
  mounts: HarborMounts,
  entries: Array<{ name: string; link?: string }>,
): string[] {
  const at = args.findIndex((arg, i) =>
    arg === "--ro-bind" && args[i + 1] === "/" && args[i + 2] === "/"
  );
  const end = args.indexOf("--", at);
  if (at === -1 || end === -1) {
    throw new Error("The sandbox's bubblewrap arguments have no read-only bind of / to replace");
  }
  const root = ["--tmpfs", "/"];
  for (const { name, link } of entries) {
    if (["proc", "dev", "logs", "tests"].includes(name)) continue;
    root.push(
      ...(link === undefined ? ["--ro-bind", `/${name}`] : ["--symlink", link]),
      `/${name}`,
    );
  }
  root.push("--bind", mounts.verifierDir, "/logs/verifier", "--ro-bind", mounts.testsDir, "/tests");
  return [
    ...args.slice(0, at),
    ...root,
    ...args.slice(at + 3, end),
    // The new root is a tmpfs: read-only once every mount point in it is made.
    "--remount-ro",
    "/",
    ...args.slice(end),
  ];
}

/** The entries of the host's `/`, with the targets of its links. */
function rootEntries(): Array<{ name: string; link?: string }> {
  return [...Deno.readDirSync("/")].map((entry) =>
    entry.isSymlink ? { name: entry.name, link: Deno.readLinkSync(`/${entry.name}`) } : entry
  );
}
