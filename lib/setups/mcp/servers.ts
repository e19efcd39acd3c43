/**
 * Other agents' MCP servers joined to our own `[mcp_servers]` (issue 33 §3): ours come first,
 * then the user's files (with `import_user_setups = ["mcp"]`), then the project's, one warning
 * per clash naming both files. Each server that joins has its variables filled in and is checked
 * as a `[mcp_servers]` entry would be; its source (file and vendor) goes along for `/mcp` and
 * `interpreter mcp list`. A project's server still waits for trust in its exact definition
 * (`definitions.ts`): the caller leaves the untrusted ones unstarted.
 */
import type { EffectiveConfig } from "../../config/mod.ts";
import { type McpServerEntry, mcpServerSchema } from "../../config/schema.ts";
import {
  resolveClashes,
  type SetupContext,
  setupContext,
  type SetupVendor,
  VENDOR_NAMES,
} from "../sources.ts";
import { expandEntry } from "./expand.ts";
import { readSetupMcpServers, type SetupMcpServer } from "./read.ts";

/** Where a server of the session comes from. */
export interface McpServerSource {
  /** The file that defines it. */
  file: string;
  vendor: SetupVendor;
  scope: "user" | "project";
}

/** Our servers and other agents', ready to start. */
export interface JoinedMcpServers {
  servers: Record<string, McpServerEntry>;
  /** The source of each server from another agent's file, by id. */
  sources: Map<string, McpServerSource>;
  warnings: string[];
}

/** How a source reads in listings: "/repo/.mcp.json (Claude Code)". */
export function sourceText(source: McpServerSource): string {
  return `${source.file} (${VENDOR_NAMES[source.vendor]})`;
}

/**
 * The other agents' servers that win their clashes (against our own ids in `ctx.mcpServerIds`
 * and each other), as read, variables not filled in; and the clash and file warnings.
 */
export async function winningSetupServers(
  ctx: SetupContext,
): Promise<{ servers: SetupMcpServer[]; warnings: string[] }> {
  const read = await readSetupMcpServers(ctx);
  const ours = (ctx.mcpServerIds ?? []).map((name) => ({
    name,
    scope: "builtin" as const,
    source: "your [mcp_servers] in config.toml",
  }));
  const { kept, warnings } = resolveClashes([...ours, ...read.servers], "MCP server");
  const servers = kept.filter((d): d is SetupMcpServer => d.scope !== "builtin");
  return { servers, warnings: [...read.warnings, ...warnings] };
}

/** The servers a session with effective config `config` gets: its own and other agents'. */
export function sessionMcpServers(
  config: Pick<EffectiveConfig, "cwd" | "projectRoot" | "home" | "trust" | "values">,
  opts: { env: Record<string, string | undefined>; isHeldBack?: (path: string) => boolean },
): Promise<JoinedMcpServers> {
  const ctx = setupContext(config, opts);
  return joinSetupMcpServers(config.values.mcp_servers ?? {}, { ctx, env: opts.env });
}

/** `ours` with other agents' servers added, filled in from `env`. */
export async function joinSetupMcpServers(
  ours: Record<string, McpServerEntry>,
  opts: { ctx: SetupContext; env: Record<string, string | undefined> },
): Promise<JoinedMcpServers> {
  const ctx = { ...opts.ctx, mcpServerIds: Object.keys(ours) };
  const { servers: found, warnings } = await winningSetupServers(ctx);
  const joined: JoinedMcpServers = { servers: { ...ours }, sources: new Map(), warnings };
  for (const server of found) {
    const entry = filledIn(server, { ...ctx, env: opts.env }, warnings);
    if (!entry) continue;
    joined.servers[server.name] = entry;
    joined.sources.set(server.name, {
      file: server.source,
      vendor: server.vendor,
      scope: server.scope,
    });
  }
  return joined;
}

/** `server`'s entry with its variables filled in, or undefined (and a warning) when bad. */
function filledIn(
  server: SetupMcpServer,
  ctx: SetupContext & { env: Record<string, string | undefined> },
  warnings: string[],
): McpServerEntry | undefined {
  const what = `MCP server "${server.name}" of ${server.source}`;
  const { entry, unset } = expandEntry(server.entry, server.vendor, {
    env: ctx.env,
    projectRoot: ctx.projectRoot,
    userHome: ctx.userHome,
  });
  // A disabled server never starts: what it would miss does not matter.
  if (unset.length > 0 && entry.enabled !== false) {
    const names = unset.map((name) => `$${name}`).join(", ");
    warnings.push(
      `The ${what} uses ${names}, which ${unset.length === 1 ? "is" : "are"} not set: set ` +
        `${unset.length === 1 ? "it" : "them"} in the environment, or give a default`,
    );
  }
  // Claude Code tells its stdio servers where the project is.
  if (server.vendor === "claude" && entry.command !== undefined) {
    entry.env = { CLAUDE_PROJECT_DIR: ctx.projectRoot, ...entry.env };
  }
  const checked = mcpServerSchema.safeParse(entry);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  warnings.push(
    `Skipped the ${what}: ${issue.path.join(".") || "its entry"}: ${issue.message}; fix the file`,
  );
  return undefined;
}
