/**
 * The check of a run, in its copy after the agent: a `--check` command (exit 0 passes) or a
 * Harbor task's `tests/test.sh`, which writes `/logs/verifier/reward.txt` (or `reward.json`).
 * Both run in the sandbox (`check_sandbox.ts`); the Harbor script finds the trial's `verifier/`
 * folder at `/logs/verifier` and the task's tests at `/tests`, so it runs unchanged. What the
 * script leaves in `verifier/` is read as hostile: only a small regular file counts as a reward,
 * and the output files replace whatever entry it put at their names.
 */
import { join } from "node:path";
import { writeTextWhole } from "../../trajectory/write.ts";
import { runSandboxed } from "./check_sandbox.ts";

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
  /** The folders the check may write: the copy and its HOME. */
  writable: string[];
  /** The trial's `verifier/` folder: output files and the reward go here. */
  verifierDir: string;
  timeoutSec: number;
  /** Whether the check may reach the network. */
  network: boolean;
  /** The check's whole environment. */
  env: Record<string, string>;
  signal?: AbortSignal;
}

/** The largest reward file read; a reward is one number. */
const MAX_REWARD_BYTES = 64 * 1024;

/** Runs `check` (a shell command) or the Harbor task in `harborDir`; writes the verifier files. */
export async function runCheck(
  check: { command?: string; harborDir?: string },
  opts: CheckOptions,
): Promise<CheckOutcome> {
  const out = await runSandboxed({
    argv: check.harborDir ? ["bash", "/tests/test.sh"] : ["sh", "-c", check.command ?? "true"],
    cwd: opts.workdir,
    writable: opts.writable,
    network: opts.network,
    env: opts.env,
    ...(check.harborDir
      ? { harbor: { verifierDir: opts.verifierDir, testsDir: join(check.harborDir, "tests") } }
      : {}),
    timeoutMs: opts.timeoutSec * 1000,
    signal: opts.signal,
  });
  await writeOutput(opts.verifierDir, "test-stdout.txt", out.stdout);
  await writeOutput(opts.verifierDir, "test-stderr.txt", out.stderr);
  if (out.timedOut) return written(opts, 0, `The check timed out after ${opts.timeoutSec} s`);
  if (!check.harborDir) return written(opts, out.code === 0 ? 1 : 0);
  const reward = await harborReward(opts.verifierDir);
  if (reward !== undefined) return { reward };
  return written(opts, 0, `tests/test.sh exited ${out.code} without writing reward.txt`);
}

async function written(opts: CheckOptions, reward: number, error?: string) {
  await writeOutput(opts.verifierDir, "reward.txt", `${reward}\n`);
  return { reward, ...(error ? { error } : {}) };
}

/** Writes `name` in `dir` whole, in place of any entry a test script left there (links too). */
async function writeOutput(dir: string, name: string, text: string): Promise<void> {
  await Deno.remove(join(dir, name), { recursive: true }).catch(() => {});
  await writeTextWhole(join(dir, name), text);
}

/** The reward a Harbor test script wrote: reward.txt, else reward.json's `reward`. */
async function harborReward(dir: string): Promise<number | undefined> {
  const text = await readSmallFile(join(dir, "reward.txt"));
  if (text !== undefined && text.trim() !== "" && Number.isFinite(Number(text.trim()))) {
    return Number(text.trim());
  }
  const json = await readSmallFile(join(dir, "reward.json"));
  try {
    const value = json === undefined ? undefined : JSON.parse(json)?.reward;
    return typeof value === "number" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The text of `path` when it is a regular file (not a link) of at most MAX_REWARD_BYTES. */
async function readSmallFile(path: string): Promise<string | undefined> {
  const info = await Deno.lstat(path).catch(() => undefined);
  if (!info?.isFile || info.size > MAX_REWARD_BYTES) return undefined;
  using file = await Deno.open(path, { read: true });
  const bytes = new Uint8Array(MAX_REWARD_BYTES + 1);
  let length = 0;
  while (length < bytes.length) {
    const n = await file.read(bytes.subarray(length));
    if (n === null) break;
    length += n;
  }
  return length > MAX_REWARD_BYTES
    ? undefined
    : new TextDecoder().decode(bytes.subarray(0, length));
}
