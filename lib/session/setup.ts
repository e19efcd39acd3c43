import { dirname, join, resolve } from "node:path";
import { ConfigError, HarnessError, UserError } from "../errors.ts";
import { loadConfig } from "../config/load.ts";
import { readTextPrefix } from "../input_file.ts";
import type { EffectiveConfig } from "../config/mod.ts";
import type { ConfigValues } from "../config/schema.ts";
import type { PromptVars } from "../harness/types.ts";
import type { RequestOptions } from "../loop/agent_loop.ts";
import type { ProviderSettings } from "../providers/types.ts";
import { discoverSkills, skillsListing } from "../tools/skills.ts";
import type { SharedOptions } from "../cli/cli.ts";
import type { AgentSession } from "./agent_session.ts";
import type { SessionInfo } from "./open.ts";
import type { GitRunner } from "../workspace/safe_git.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";

/** Resolves `-C/--cd` against the current directory and checks it is a directory. */
export async function resolveWorkdir(cd: string | undefined): Promise<string> {
  const dir = resolve(Deno.cwd(), cd ?? ".");
  const info = await Deno.stat(dir).catch(() => undefined);
  if (!info?.isDirectory) {
    throw new UserError(`Cannot use "${dir}" as the working directory: it is not a directory`, {
      hint: "Pass an existing directory to -C/--cd",
    });
  }
  return dir;
}

/** The nearest ancestor of `dir` (itself included) that holds `.git`, if any. */
export async function findGitRoot(dir: string): Promise<string | undefined> {
  for (let current = dir;; current = dirname(current)) {
    if (await Deno.stat(join(current, ".git")).catch(() => undefined)) return current;
    if (dirname(current) === current) return undefined;
  }
}

/** Maps command-line flags onto config keys, for the config loader. */
export function flagOverrides(options: Omit<SharedOptions, "config">, cwd: string) {
  const flags: Record<string, unknown> = { cwd };
  if (options.model) flags.model = options.model;
  if (options.sandbox) flags.sandbox_mode = options.sandbox;
  if (options.askForApproval) flags.approval_policy = options.askForApproval;
  if (options.harness !== undefined) flags.harness = options.harness;
  if (options.oss) flags.oss = true;
  if (options.localProvider) flags.local_provider = options.localProvider;
  if (options.addDir?.length) flags.add_dirs = options.addDir.map((dir) => resolve(dir));
  if (options.yolo) {
    if (options.sandbox && options.sandbox !== "danger-full-access") {
      throw new ConfigError(`Cannot combine --yolo with --sandbox "${options.sandbox}"`, {
        hint: "--yolo already means --sandbox danger-full-access; drop one of the two flags",
      });
    }
    flags.sandbox_mode = "danger-full-access";
    flags.approval_policy = "never";
    flags.names = { sandbox_mode: "--yolo", approval_policy: "--yolo" };
  }
  return flags;
}

/** Collects the values the system prompt templates can use. */
export async function promptVars(
  cwd: string,
  opts: {
    model: string;
    home: string;
    sandbox: string;
    env: Record<string, string | undefined>;
    /** `harness_guidance`: false leaves the harness's guidance out. */
    guidance?: boolean;
    git: GitRunner;
    /** True for a file that changed while an earlier session ran and is not loaded yet. */
    isHeldBack?: (path: string) => boolean;
  },
): Promise<PromptVars> {
  const isHeldBack = opts.isHeldBack ?? (() => false);
  // The three inputs read the disk and run git independently, so they are gathered together.
  const [gitStatusText, agentsText, skills] = await Promise.all([
    gitStatus(cwd, opts.git, isHeldBack),
    agentsMd(cwd, opts.home),
    // Start-up reads, before any tool runs: this process reads as the helper would.
    discoverSkills(cwd, opts.home, { userHome: opts.env.HOME, fs: inProcessFs, isHeldBack }),
  ]);
  return {
    ...(opts.guidance === false ? { guidance: "" } : {}),
    cwd,
    date: currentDate(opts.env),
    platform: `${Deno.build.os} ${Deno.build.arch}`,
    shell: opts.env.SHELL ?? "/bin/bash",
    model: opts.model,
    gitStatus: gitStatusText,
    agentsMd: agentsText,
    sandbox: opts.sandbox,
    skills: skillsListing(skills),
  };
}

/** Today's date, or the fixed `OPENINTERPRETER_TEST_TIME` used by tests. */
function currentDate(env: Record<string, string | undefined>): string {
  const fixed = env.OPENINTERPRETER_TEST_TIME;
  return fixed ? fixed.slice(0, 10) : new Date().toISOString().slice(0, 10);
}

/**
 * `git status --short --branch`, run so that repository config cannot execute anything, and not
 * at all in a repository that was created, or whose config changed, while a session ran.
 */
async function gitStatus(
  cwd: string,
  git: GitRunner,
  isHeldBack: (path: string) => boolean,
): Promise<string> {
  const root = await findGitRoot(cwd);
  if (!root) return "(not a git repository)";
  if (isHeldBack(join(root, ".git")) || isHeldBack(join(root, ".git", "config"))) {
    return "(git status not run: the repository changed while an earlier session ran)";
  }
  const out = await git.run(["status", "--short", "--branch"], cwd);
  if (out.skipped) return `(git status not run: ${out.skipped})`;
  if (!out.ok) return "(not a git repository)";
  const lines = out.stdout.trim().split("\n");
  return lines.length > 40
    ? [...lines.slice(0, 40), `… ${lines.length - 40} more`].join("\n")
    : lines.join("\n");
}

const AGENTS_MD_MAX_BYTES = 32 * 1024;

/** The user's global AGENTS.md followed by the project's, each trimmed and capped. */
async function agentsMd(cwd: string, home: string): Promise<string> {
  const root = (await findGitRoot(cwd)) ?? cwd;
  const candidates = [join(home, "AGENTS.md")];
  for (let dir = cwd;; dir = dirname(dir)) {
    candidates.splice(1, 0, join(dir, "AGENTS.md"));
    if (dir === root || dirname(dir) === dir) break;
  }
  const parts: string[] = [];
  for (const file of candidates) {
    const text = await readTextPrefix(file, AGENTS_MD_MAX_BYTES);
    if (text.trim()) parts.push(text.trim().slice(0, AGENTS_MD_MAX_BYTES));
  }
  return parts.join("\n\n");
}

/** The error for a harness that cannot run over the chosen wire API. */
export function wireMismatch(harness: string, wire: string, supported: string[]): HarnessError {
  return new HarnessError(`wire_api = "${wire}" is not supported by harness = "${harness}"`, {
    hint: `Use a provider whose wire_api is one of ${
      supported.map((w) => `"${w}"`).join(", ")
    }, or choose another harness with --harness`,
  });
}

/** The user's request settings over the harness's (config keys), and the session id. */
export function requestOptions(values: ConfigValues, sessionId: string): RequestOptions {
  const out: RequestOptions = { sessionId };
  if (values.model_thinking) out.thinking = values.model_thinking;
  if (values.model_reasoning_summary) out.reasoningSummary = values.model_reasoning_summary;
  if (values.model_verbosity) out.verbosity = values.model_verbosity;
  if (values.model_max_output_tokens) out.maxOutputTokens = values.model_max_output_tokens;
  return out;
}

/** What the banner and `/status` show of a ready agent session. */
/** The wire API as the banner and `/status` show it: Ollama's native API is named as such. */
export function wireLabel(settings: Pick<ProviderSettings, "wireApi" | "nativeApi">): string {
  return settings.nativeApi === "ollama" ? "ollama /api/chat" : settings.wireApi;
}

export function infoOf(agent: AgentSession, cwd: string): SessionInfo {
  return {
    cwd,
    model: agent.model,
    provider: agent.settings.id,
    wireApi: wireLabel(agent.settings),
    harness: agent.harness.id,
    sandbox: agent.sandbox.banner,
  };
}

/**
 * The effective config for a command that opens no session (`debug config`, `debug harness`):
 * the files for `-C/--cd` (or the current directory), profile, `-c` and flags.
 */
export async function commandConfig(options: SharedOptions): Promise<EffectiveConfig> {
  const cwd = await resolveWorkdir(options.cd);
  return await loadConfig({
    cwd,
    env: Deno.env.toObject(),
    flags: flagOverrides(options, cwd),
    overrides: options.config,
    profile: options.profile,
  });
}
