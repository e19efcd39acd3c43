/**
 * The check of a run, in its copy after the agent: a `--check` command (exit 0 passes) or a
 * Harbor task's `tests/test.sh`, which writes `/logs/verifier/reward.txt` (or `reward.json`). The
 * Harbor script runs in bubblewrap with the trial's `verifier/` folder at `/logs/verifier` and the
 * task's tests at `/tests`, so the script runs unchanged.
 */
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { runCommand } from "./_run.ts";

/** The check's outcome. */
export interface CheckOutcome {
  /** Null when the check could not give one. */
  reward: number | null;
  error?: string;
}

/** Options of `runCheck`. */
export interface CheckOptions {
  /** The run's working directory in its copy. */
  workdir: string;
  /** The trial's `verifier/` folder: output files and the reward go here. */
  verifierDir: string;
  timeoutSec: number;
  signal?: AbortSignal;
  env?: Record<string, string>;
}

/** Runs `check` (a shell command) or the Harbor task in `harborDir`; writes the verifier files. */
export async function runCheck(
  check: { command?: string; harborDir?: string },
  opts: CheckOptions,
): Promise<CheckOutcome> {
  const [program, args] = check.harborDir
    ? ["bwrap", harborArgs(check.harborDir, opts)]
    : ["sh", ["-c", check.command ?? "true"]];
  const out = await runCommand(program, args, {
    cwd: opts.workdir,
    env: opts.env,
    timeoutMs: opts.timeoutSec * 1000,
    signal: opts.signal,
  }).catch((error) => {
    if (error instanceof Deno.errors.NotFound && check.harborDir) {
      throw new UserError("Cannot run a Harbor task's tests/test.sh: bubblewrap is not installed", {
        hint: "Install it (apt-get install bubblewrap), or run the task through Harbor",
      });
    }
    throw error;
  });
  await Deno.writeTextFile(join(opts.verifierDir, "test-stdout.txt"), out.stdout);
  await Deno.writeTextFile(join(opts.verifierDir, "test-stderr.txt"), out.stderr);
  if (out.timedOut) return written(opts, 0, `The check timed out after ${opts.timeoutSec} s`);
  if (!check.harborDir) return written(opts, out.code === 0 ? 1 : 0);
  const reward = await harborReward(opts.verifierDir);
  if (reward !== undefined) return { reward };
  return written(opts, 0, `tests/test.sh exited ${out.code} without writing reward.txt`);
}

async function written(opts: CheckOptions, reward: number, error?: string) {
  await Deno.writeTextFile(join(opts.verifierDir, "reward.txt"), `${reward}\n`);
  return { reward, ...(error ? { error } : {}) };
}

/** The reward a Harbor test script wrote: reward.txt, else reward.json's `reward`. */
async function harborReward(dir: string): Promise<number | undefined> {
  const text = await Deno.readTextFile(join(dir, "reward.txt")).catch(() => undefined);
  if (text !== undefined && text.trim() !== "" && Number.isFinite(Number(text.trim()))) {
    return Number(text.trim());
  }
  const json = await Deno.readTextFile(join(dir, "reward.json")).catch(() => undefined);
  try {
    const value = json === undefined ? undefined : JSON.parse(json)?.reward;
    return typeof value === "number" ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * bwrap arguments that run `bash /tests/test.sh` in the copy: the host's root entries bound as
 * they are, then `/logs/verifier` and `/tests` added on a fresh root.
 */
function harborArgs(harborDir: string, opts: CheckOptions): string[] {
  const args = ["--die-with-parent", "--tmpfs", "/"];
  for (const entry of Deno.readDirSync("/")) {
    if (["proc", "dev", "logs", "tests"].includes(entry.name)) continue;
    const path = `/${entry.name}`;
    if (entry.isSymlink) args.push("--symlink", Deno.readLinkSync(path), path);
    else args.push("--bind", path, path);
  }
  args.push("--proc", "/proc", "--dev-bind", "/dev", "/dev");
  args.push("--bind", opts.verifierDir, "/logs/verifier");
  args.push("--ro-bind", join(harborDir, "tests"), "/tests");
  args.push("--chdir", opts.workdir, "bash", "/tests/test.sh");
  return args;
}
