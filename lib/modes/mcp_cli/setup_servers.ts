/**
 * For `interpreter mcp list/get`: the MCP servers of other agents' files (`.mcp.json`,
 * `.gemini/settings.json`, ...) a session here would get besides config.toml's, each with its
 * file, vendor, and whether the user trusted its exact definition yet (a project's server
 * starts only then).
 */
import type { EffectiveConfig } from "../../config/mod.ts";
import type { McpServerEntry } from "../../config/schema.ts";
import { readProjectTrust } from "../../config/trust_store.ts";
import { setupMcpDefinitions } from "../../setups/mcp/definitions.ts";
import { sessionMcpServers } from "../../setups/mcp/servers.ts";
import { setupContext, VENDOR_NAMES } from "../../setups/sources.ts";

/** Where a server of another agent's file comes from. */
export interface SetupServerInfo {
  file: string;
  /** The vendor as people know it ("Claude Code"). */
  vendor: string;
  /** False for a project's server whose definition the user has not trusted yet. */
  trusted: boolean;
}

/** Every server a session would get, the other agents' ones by id, and warnings. */
export async function withSetupServers(
  config: EffectiveConfig,
  env: Record<string, string>,
): Promise<{
  servers: Record<string, McpServerEntry>;
  setup: Map<string, SetupServerInfo>;
  warnings: string[];
}> {
  // A project nobody trusted yet shows its servers too, all untrusted: what `trust` would start.
  const decided = config.trust === "trusted";
  const seen = { ...pick(config), trust: "trusted" as const };
  const joined = await sessionMcpServers(seen, { env });
  const definitions = await setupMcpDefinitions(setupContext(seen, { env }));
  const trust = definitions.length && decided
    ? (await readProjectTrust(config.home, config.projectRoot, env)).definitions
    : new Set<string>();
  const untrusted = new Set(definitions.filter((d) => !trust.has(d.key)).map((d) => d.name));
  const setup = new Map<string, SetupServerInfo>();
  for (const [id, source] of joined.sources) {
    setup.set(id, {
      file: source.file,
      vendor: VENDOR_NAMES[source.vendor],
      trusted: !untrusted.has(id),
    });
  }
  return { servers: joined.servers, setup, warnings: joined.warnings };
}

function pick(config: EffectiveConfig) {
  const { cwd, projectRoot, home, values } = config;
  return { cwd, projectRoot, home, values };
}
