/**
 * The trust checks of a session. Every front end that runs the agent refuses a directory
 * outside a git repository, where what it changes could not be seen and undone, unless the
 * caller said otherwise (`SessionConfig.skipGitRepoCheck`). And in a trusted project, the
 * runnable definitions the project brings (hooks, MCP servers, and in other agents' files
 * commands with shell pre-execution, allowed-tools, allow rules, env, status lines; see
 * `lib/setups/definitions.ts`) run or apply only once the user trusted
 * each exact definition (`interpreter trust`, `/hooks trust`, or the REPL's question at start),
 * kept in `<home>/trust.json` (`lib/config/trust_store.ts`); a copy of a repository takes the
 * trust of its source when `OPENINTERPRETER_TRUST_SOURCE` names the source's root.
 */
import { configHome, findProjectRoot } from "../config/load.ts";
import type { EffectiveConfig } from "../config/mod.ts";
import { projectMcpDefinitions, type RunnableDefinition } from "../config/project_definitions.ts";
import { grantTrust, readProjectTrust, TRUST_SOURCE_ENV } from "../config/trust_store.ts";
import { discoverHooks } from "../hooks/discovery.ts";
import { findGitRoot } from "../workspace/git_root.ts";
import { releaseHeldBack } from "../workspace/held_back.ts";
import { UntrustedDirectoryError } from "./errors.ts";
import type { SessionConfig, SessionIO } from "./types.ts";

export type { RunnableDefinition } from "../config/project_definitions.ts";
export { TRUST_SOURCE_ENV };

/** Throws when `config.cwd` is not inside a git repository and the check is not skipped. */
export async function checkTrustedDirectory(
  config: Pick<SessionConfig, "cwd" | "skipGitRepoCheck">,
): Promise<void> {
  if (config.skipGitRepoCheck || (await findGitRoot(config.cwd))) return;
  throw new UntrustedDirectoryError(config.cwd);
}

/** A project's runnable definitions and which of them the user has not trusted yet. */
export interface ProjectDefinitions {
  all: RunnableDefinition[];
  untrusted: RunnableDefinition[];
}

/**
 * The runnable definitions of the project `config` was loaded for (its hooks, then its MCP
 * servers) and which of them wait for trust; none unless the project's files were read.
 */
export async function projectDefinitions(
  config: EffectiveConfig,
  opts: { env: Record<string, string | undefined>; isHeldBack?: (file: string) => boolean },
): Promise<ProjectDefinitions> {
  if (config.trust !== "trusted") return { all: [], untrusted: [] };
  const { hooks } = await discoverHooks(config, { isHeldBack: opts.isHeldBack });
  const all: RunnableDefinition[] = hooks.filter((hook) => hook.scope === "project").map((
    hook,
  ) => ({
    kind: "hook",
    name: hook.matcher ? `${hook.event} ${hook.matcher}` : hook.event,
    command: hook.command,
    source: hook.source,
    key: hook.key,
  }));
  all.push(...await projectMcpDefinitions(config));
  const { setupContext } = await import("../setups/sources.ts");
  const { setupDefinitions } = await import("../setups/definitions.ts");
  all.push(...await setupDefinitions(setupContext(config, opts)));
  if (all.length === 0) return { all, untrusted: [] };
  const trusted = (await readProjectTrust(config.home, config.projectRoot, opts.env)).definitions;
  return { all, untrusted: all.filter((d) => !trusted.has(d.key)) };
}

/** Records the user's trust in `definitions` of the project at `projectRoot` (and in it). */
export async function trustDefinitions(
  home: string,
  projectRoot: string,
  definitions: readonly RunnableDefinition[],
  opts: { project?: boolean } = {},
): Promise<void> {
  await grantTrust(home, projectRoot, {
    project: opts.project,
    definitions: definitions.map((d) => d.key),
  });
}

/**
 * Kinds whose readers warn about their own untrusted definitions: hooks (`lib/hooks/user_hooks.ts`,
 * whose warning points to `/hooks trust` in the REPL).
 */
const WARNED_BY_READER: ReadonlySet<RunnableDefinition["kind"]> = new Set(["hook"]);

/**
 * Before a session starts anything of the project: asks `io` (the REPL) whether to trust the
 * project's untrusted definitions, and returns the ids of the MCP servers that stay untrusted
 * (not started; `/mcp` lists them). One warning names the others that stay untrusted, kind by
 * kind, and how to trust them (`exec` never asks). Each kind's reader leaves its untrusted ones
 * off by checking `readProjectTrust(home, projectRoot, env).definitions.has(key)` itself (with
 * `bypassDefinitionTrust` trusting all). `--dangerously-bypass-definition-trust` trusts everything.
 */
export async function settleDefinitionTrust(
  config: EffectiveConfig,
  opts: {
    session: Pick<SessionConfig, "bypassDefinitionTrust">;
    io: SessionIO;
    env: Record<string, string | undefined>;
    isHeldBack?: (file: string) => boolean;
    warn(message: string): void;
  },
): Promise<Set<string>> {
  if (opts.session.bypassDefinitionTrust) return new Set();
  if (config.trust === undefined) await warnUntrustedProject(config, opts);
  let { untrusted } = await projectDefinitions(config, opts);
  if (untrusted.length > 0 && opts.io.trustDefinitions) {
    const yes = await opts.io.trustDefinitions({
      projectRoot: config.projectRoot,
      definitions: untrusted,
    });
    if (yes) {
      await trustDefinitions(config.home, config.projectRoot, untrusted);
      untrusted = [];
    }
  }
  const left = untrusted.filter((d) => !WARNED_BY_READER.has(d.kind));
  if (left.length > 0) opts.warn(await untrustedWarning(config.projectRoot, left));
  return new Set(untrusted.filter((d) => d.kind === "mcp_server").map((d) => d.name));
}

/**
 * In a project with no trust decision, other agents' MCP and settings files are not read (their
 * deny and ask rules aside): one warning names them and how to trust the project.
 */
async function warnUntrustedProject(
  config: EffectiveConfig,
  opts: { env: Record<string, string | undefined>; warn(message: string): void },
): Promise<void> {
  const [{ setupContext }, { unreadProjectSetupFiles }] = await Promise.all([
    import("../setups/sources.ts"),
    import("../setups/report.ts"),
  ]);
  const files = await unreadProjectSetupFiles(setupContext(config, { env: opts.env }));
  if (files.length === 0) return;
  opts.warn(
    `The project "${config.projectRoot}" is not trusted, so the MCP servers, hooks, env, status ` +
      `lines and allow rules of its ${files.join(", ")} are not used (deny and ask rules are): ` +
      'review and trust them with "interpreter trust"',
  );
}

/** `MCP server "a" and allow rule "Bash(rm:*)" of the project "/r" are not trusted yet …`. */
async function untrustedWarning(
  root: string,
  left: readonly RunnableDefinition[],
): Promise<string> {
  const { definitionNames } = await import("./definition_kinds.ts");
  const one = left.length === 1;
  const off = left.every((d) => d.kind === "mcp_server") ? "not started" : "left off";
  return `${definitionNames(left)} of the project "${root}" ${one ? "is" : "are"} not trusted ` +
    `yet and ${off}: review and trust the project's definitions with "interpreter trust"`;
}

/** What `allowHeldBackChanges()` let through: the project's root and the paths under it. */
export interface AllowedChanges {
  root: string;
  files: string[];
  /** Folders that were held back whole. */
  folders: string[];
}

/**
 * Lets the next session in `cwd`'s project load the project's config, skills and repository that
 * were held back because they changed while an earlier session ran (`interpreter trust-changes`).
 */
export async function allowHeldBackChanges(
  cwd: string,
  env: Record<string, string>,
): Promise<AllowedChanges> {
  const root = await findProjectRoot(cwd);
  return { root, ...await releaseHeldBack(configHome(env, cwd), root) };
}
