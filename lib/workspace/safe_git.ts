/**
 * Git commands the agent itself runs: the start-up `git status`, `/diff` and review diffs.
 *
 * A repository's own config can make git run programs (`core.fsmonitor`, clean filters,
 * textconv, hooks) or read files outside it (`core.worktree`), and a sandboxed command may have
 * planted that config for the next session to execute on the host. So every such command runs
 * with those settings neutralised and its work tree pinned, inside a read-only, network-less
 * command sandbox when one can be had; without a sandbox, a repository whose local config names
 * a program is not touched at all.
 */
import { dirname, join } from "node:path";
import {
  type CommandSandbox,
  openCommandSandbox,
  specCommand,
} from "../../sandbox/command_sandbox.ts";

/** What one git command printed; `skipped` says why it did not run. */
export interface GitResult {
  ok: boolean;
  stdout: string;
  /** The first line git (or the sandbox) wrote to stderr when it failed. */
  error?: string;
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
  // Signature checks run a gpg program.
  "log.showSignature=false",
  "gpg.program=false",
  "gpg.openpgp.program=false",
  "gpg.x509.program=false",
  "gpg.ssh.program=false",
  // Inline submodule diffs and summaries run git inside the submodule, under its own config.
  "diff.submodule=short",
  "status.submoduleSummary=false",
  "submodule.recurse=false",
  // A bare repository planted inside the work tree would bring a config of its own.
  "safe.bareRepository=explicit",
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

/** Subcommands that would run `git status` inside each submodule to see whether it is dirty. */
const SUBMODULE_DIRT = new Set(["status", ...DIFFING]);

/** Local config keys that name a program for git to run. */
const PROGRAM_KEY =
  /^(core\.(fsmonitor|hookspath|pager|editor|sshcommand|gitproxy|askpass|alternaterefscommand)|filter\..*|diff\.external|diff\..*\.(textconv|command)|merge\..*\.driver|gpg\..*|credential\..*|uploadpack\..*|sequence\.editor|remote\..*\.(uploadpack|receivepack|vcs)|.*\.(cmd|command|program|helper|driver|hook))$/i;

/**
 * The git argv with the neutralising `-c` overrides and per-subcommand guards. `workTree` pins
 * the work tree to the directory holding `.git`, whatever `core.worktree` says.
 */
export function neutralGitArgs(args: string[], opts: { workTree?: string } = {}): string[] {
  const [command, ...rest] = args;
  const guards = [
    ...(DIFFING.has(command) ? ["--no-ext-diff"] : []),
    ...(DIFFING.has(command) || command === "blame" ? ["--no-textconv"] : []),
    ...(SUBMODULE_DIRT.has(command) ? ["--ignore-submodules=dirty"] : []),
  ];
  return [
    "--no-pager",
    ...(opts.workTree ? [`--work-tree=${opts.workTree}`] : []),
    ...NEUTRAL_CONFIG.flatMap((kv) => ["-c", kv]),
    command,
    ...guards,
    ...rest,
  ];
}

/**
 * `GIT_CONFIG_*` variables that empty the programs of the filter drivers `filters` names.
 * Git has no switch that turns every filter off, and `-c` cannot carry a name holding `=`.
 */
export function filterOverrides(filters: string[]): Record<string, string> {
  const pairs = filters.flatMap((name) => [
    [`filter.${name}.clean`, ""],
    [`filter.${name}.smudge`, ""],
    [`filter.${name}.process`, ""],
    [`filter.${name}.required`, "false"],
  ]);
  if (pairs.length === 0) return {};
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  pairs.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** The environment git runs with: no system config, no prompts, no pager, no optional locks. */
function neutralGitEnv(env: Record<string, string>): Record<string, string> {
  const out = { ...env };
  for (const name of DROPPED_ENV) delete out[name];
  for (const name of Object.keys(out)) {
    if (/^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(name)) delete out[name];
  }
  return {
    ...out,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_ATTR_NOSYSTEM: "1",
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
  opts: { env: Record<string, string>; sandbox?: CommandSandbox; readablePaths?: string[] },
): Promise<GitRunner> {
  const sandbox = opts.sandbox ?? await openCommandSandbox({
    mode: "read-only",
    writableRoots: [],
    networkAccess: false,
    // A repository under /tmp stays visible through the sandbox's private /tmp.
    readablePaths: opts.readablePaths,
  });
  const env = neutralGitEnv(opts.env);
  const confined = sandbox.status.enforced;
  return {
    async run(args, cwd) {
      const config = await readConfig(cwd, env);
      if ("skipped" in config) return { ok: false, stdout: "", skipped: config.skipped };
      const key = confined ? undefined : programConfigKey(config.entries);
      if (key) {
        return {
          ok: false,
          stdout: "",
          skipped: `the repository's config sets ${key}, which runs a program, and there is ` +
            "no sandbox to run git in",
        };
      }
      const argv = ["git", ...neutralGitArgs(args, { workTree: await workTreeOf(cwd) })];
      const runEnv = { ...env, ...filterOverrides(filterNames(config.entries)) };
      const spec = confined
        ? await sandbox.wrap({ argv, cwd, env: runEnv })
        : { cmd: "git", args: argv.slice(1), env: runEnv };
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
    const out = await specCommand(spec, cwd).output();
    const stdout = new TextDecoder().decode(out.stdout);
    if (out.success) return { ok: true, stdout };
    const error = new TextDecoder().decode(out.stderr).trim().split("\n")[0];
    return { ok: false, stdout, ...(error ? { error } : {}) };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { ok: false, stdout: "", skipped: "git is not available" };
    }
    throw error;
  }
}

/** One config entry as `git config --list --show-scope` prints it. */
interface ConfigEntry {
  scope: string;
  key: string;
  value: string;
}

/**
 * Every config entry git would read in `cwd`, includes followed. Reading config runs no
 * program; a config git cannot read stops the command, as git itself would stop.
 */
async function readConfig(
  cwd: string,
  env: Record<string, string>,
): Promise<{ entries: ConfigEntry[] } | { skipped: string }> {
  const args = neutralGitArgs(["config", "--list", "--show-scope", "--includes", "-z"]);
  const out = await spawnGit({ cmd: "git", args, env }, cwd);
  if (out.skipped) return { skipped: out.skipped };
  if (!out.ok) return { skipped: "git cannot read the repository's config" };
  const fields = out.stdout.split("\0");
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [key, ...value] = fields[i + 1].split("\n");
    entries.push({ scope: fields[i], key, value: value.join("\n") });
  }
  return { entries };
}

/** The first repository-level (local or worktree) config key that names a program, if any. */
function programConfigKey(entries: ConfigEntry[]): string | undefined {
  for (const { scope, key, value } of entries) {
    if (scope !== "local" && scope !== "worktree") continue;
    if (key.toLowerCase() === "core.fsmonitor" && /^(false|0|no|off|)$/i.test(value)) continue;
    if (PROGRAM_KEY.test(key)) return key;
  }
  return undefined;
}

/** The names of every filter driver the config defines, in any scope. */
function filterNames(entries: ConfigEntry[]): string[] {
  const names = entries.flatMap(({ key }) => /^filter\.(.+)\.[^.]+$/i.exec(key)?.[1] ?? []);
  return [...new Set(names)];
}

/** The directory holding the `.git` nearest above `dir`: the work tree, as the agent sees it. */
async function workTreeOf(dir: string): Promise<string | undefined> {
  for (let current = dir;; current = dirname(current)) {
    if (await Deno.stat(join(current, ".git")).catch(() => undefined)) return current;
    if (dirname(current) === current) return undefined;
  }
}
