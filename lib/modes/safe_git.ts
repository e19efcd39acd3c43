/**
 * Git commands the agent itself runs (the start-up `git status` today; diffs and reviews later).
 *
 * A repository's own config can make git run programs (`core.fsmonitor`, clean filters,
 * textconv, hooks), and a sandboxed command may have planted that config for the next session
 * to execute on the host. So every such command runs with those settings neutralised, inside a
 * read-only, network-less command sandbox when one can be had; without a sandbox, a repository
 * whose local config names a program is not touched at all.
 */
import { type CommandSandbox, openCommandSandbox } from "../../sandbox/command_sandbox.ts";

/** What one git command printed; `skipped` says why it did not run. */
export interface GitResult {
  ok: boolean;
  stdout: string;
  skipped?: string;
}

/** Runs git commands for the agent; dispose it to remove the sandbox's temp files. */
export interface GitRunner extends AsyncDisposable {
  run(args: string[], cwd: string): Promise<GitResult>;
}

/** Overrides that keep repository config from running anything or reaching the network. */
const NEUTRAL_CONFIG = [
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  "core.pager=cat",
  "core.editor=true",
  "core.sshCommand=false",
  "core.untrackedCache=false",
  "sequence.editor=true",
  "credential.helper=",
  "protocol.allow=never",
];

/** Environment variables that name programs for git to run, or point it at another repo. */
const DROPPED_ENV = [
  "GIT_EXTERNAL_DIFF",
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "GIT_EDITOR",
  "GIT_PAGER",
  "GIT_EXEC_PATH",
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_CONFIG",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
];

/** Subcommands that can show diffs, and so could run an external diff or textconv program. */
const DIFFING = new Set(["diff", "log", "show", "whatchanged"]);

/** Local config keys that name a program for git to run. */
const PROGRAM_KEY =
  /^(core\.(fsmonitor|hookspath|pager|editor|sshcommand|gitproxy|askpass|alternaterefscommand)|filter\..*|diff\.external|diff\..*\.(textconv|command)|merge\..*\.driver|gpg\..*|credential\..*|uploadpack\..*|sequence\.editor|remote\..*\.(uploadpack|receivepack|vcs)|.*\.(cmd|command|program|helper|driver|hook))$/i;

/** The git argv with the neutralising `-c` overrides and diff guards. */
export function neutralGitArgs(args: string[]): string[] {
  const config = NEUTRAL_CONFIG.flatMap((kv) => ["-c", kv]);
  const guards = DIFFING.has(args[0]) ? ["--no-ext-diff", "--no-textconv"] : [];
  return [...config, args[0], ...guards, ...args.slice(1)];
}

/** The environment git runs with: no system config, no prompts, no pager, no optional locks. */
export function neutralGitEnv(env: Record<string, string>): Record<string, string> {
  const out = { ...env };
  for (const name of DROPPED_ENV) delete out[name];
  for (const name of Object.keys(out)) {
    if (/^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(name)) delete out[name];
  }
  return {
    ...out,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_PAGER: "cat",
    PAGER: "cat",
  };
}

/**
 * Opens a runner. With no `sandbox` given it opens a read-only one (bubblewrap or Seatbelt);
 * where that is not enforced, git runs on the host only in repositories whose local config
 * names no program.
 */
export async function openGitRunner(
  opts: { env: Record<string, string>; sandbox?: CommandSandbox },
): Promise<GitRunner> {
  const sandbox = opts.sandbox ??
    await openCommandSandbox({ mode: "read-only", writableRoots: [], networkAccess: false });
  const env = neutralGitEnv(opts.env);
  const confined = sandbox.status.enforced;
  return {
    async run(args, cwd) {
      if (!confined) {
        const key = await programConfigKey(cwd, env);
        if (key) {
          return {
            ok: false,
            stdout: "",
            skipped: `the repository's config sets ${key}, which runs a program, and there is ` +
              "no sandbox to run git in",
          };
        }
      }
      const argv = ["git", ...neutralGitArgs(args)];
      const spec = confined
        ? await sandbox.wrap({ argv, cwd, env })
        : { cmd: "git", args: argv.slice(1), env };
      return await spawnGit(spec, cwd);
    },
    [Symbol.asyncDispose]: () => opts.sandbox ? Promise.resolve() : sandbox.close(),
  };
}

async function spawnGit(
  spec: { cmd: string; args: string[]; env: Record<string, string> },
  cwd: string,
): Promise<GitResult> {
  try {
    const out = await new Deno.Command(spec.cmd, {
      args: spec.args,
      cwd,
      env: spec.env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    return { ok: out.success, stdout: new TextDecoder().decode(out.stdout) };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { ok: false, stdout: "", skipped: "git is not available" };
    }
    throw error;
  }
}

/** The first repository-level (local or worktree) config key that names a program, if any. */
async function programConfigKey(
  cwd: string,
  env: Record<string, string>,
): Promise<string | undefined> {
  const out = await spawnGit({
    cmd: "git",
    args: ["config", "--list", "--show-scope", "--includes"],
    env,
  }, cwd);
  for (const line of out.stdout.split("\n")) {
    const match = /^(local|worktree)\t([^=]+)=(.*)$/.exec(line);
    if (!match) continue;
    const [, , key, value] = match;
    if (key.toLowerCase() === "core.fsmonitor" && /^(false|0|no|off|)$/i.test(value)) continue;
    if (PROGRAM_KEY.test(key)) return key;
  }
  return undefined;
}
