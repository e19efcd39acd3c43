/**
 * The MCP servers other agents' files define (issue 33 §3): Claude Code's `.mcp.json` and
 * `~/.claude.json`, Gemini CLI's and Qwen Code's `settings.json` `mcpServers`, opencode's
 * `opencode.json[c]` `mcp`, Cursor's `.cursor/mcp.json`, from the places `locationsOf("mcp")`
 * lists. The user's files count only when `import_user_setups` names "mcp"; a project's only
 * when the project is trusted. A bad file or server is a warning naming it and the fix.
 */
import { join } from "node:path";
import type { McpServerEntry } from "../../config/schema.ts";
import { UserError } from "../../errors.ts";
import { type FoundLocation, locationsOf } from "../locations.ts";
import {
  type NamedDefinition,
  parseSetupJson,
  readSetupFile,
  type SetupContext,
  type SetupVendor,
  setupWarning,
  VENDOR_NAMES,
} from "../sources.ts";
import { mapServer, serversOf } from "./map.ts";

/** One server of another agent's file, mapped, its variables not yet filled in. */
export interface SetupMcpServer extends NamedDefinition {
  scope: "user" | "project";
  vendor: SetupVendor;
  entry: McpServerEntry;
}

/** What the files define, in the order read (the user's, then the project's nearest first). */
export interface SetupMcpRead {
  servers: SetupMcpServer[];
  warnings: string[];
}

/** A server name our tool names can carry (`mcp__NAME__tool`). */
const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

/** Every MCP server of other agents' files that `ctx` lets in. */
export async function readSetupMcpServers(ctx: SetupContext): Promise<SetupMcpRead> {
  const read: SetupMcpRead = { servers: [], warnings: [] };
  for (const location of locationsOf("mcp", ctx)) {
    if (location.scope === "user" && !ctx.importUser.has("mcp")) continue;
    const parsed = await readJson(location.absolute, ctx, location.scope, read.warnings);
    if (parsed === undefined) continue;
    const disabled = location.vendor === "claude" && location.folder !== undefined
      ? await claudeDisabled(location.folder, ctx)
      : settingsFilter(location.vendor, parsed);
    read.servers.push(...fileServers(location, parsed, { ctx, disabled, warn: read.warnings }));
  }
  return read;
}

function fileServers(
  location: FoundLocation,
  parsed: unknown,
  opts: { ctx: SetupContext; disabled: { has(name: string): boolean }; warn: string[] },
): SetupMcpServer[] {
  const file = location.absolute;
  const folders = location.vendor === "claude" && location.scope === "user"
    ? [opts.ctx.cwd, opts.ctx.projectRoot]
    : [];
  const maps = serversOf(location.vendor, parsed, folders);
  const out: SetupMcpServer[] = [];
  const seen = new Set<string>();
  for (const servers of maps) {
    for (const [name, raw] of Object.entries(servers)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const what = `MCP server "${name}" of ${file} (${VENDOR_NAMES[location.vendor]})`;
      if (!SERVER_NAME.test(name)) {
        opts.warn.push(`Skipped the ${what}: rename it with only letters, digits, _ and -`);
        continue;
      }
      const mapped = mapServer(location.vendor, raw);
      if ("skip" in mapped) {
        opts.warn.push(`Skipped the ${what}: ${mapped.skip}`);
        continue;
      }
      for (const note of mapped.notes) opts.warn.push(`The ${what}: ${note}`);
      const entry = opts.disabled.has(name) ? { ...mapped.entry, enabled: false } : mapped.entry;
      out.push({ name, scope: location.scope, source: file, vendor: location.vendor, entry });
    }
  }
  return out;
}

/** The parsed file, or undefined when there is none or it is bad (then a warning). */
async function readJson(
  path: string,
  ctx: SetupContext,
  scope: "user" | "project",
  warnings: string[],
): Promise<unknown> {
  try {
    const text = await readSetupFile(path, ctx, scope);
    return text === undefined ? undefined : parseSetupJson(text, path);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    warnings.push(setupWarning(error));
    return undefined;
  }
}

/**
 * The `.mcp.json` servers Claude Code was told never to start in folder `folder`:
 * `disabledMcpjsonServers` of `.claude/settings.local.json` and `.claude/settings.json`.
 */
async function claudeDisabled(folder: string, ctx: SetupContext): Promise<Set<string>> {
  const names = new Set<string>();
  for (const file of ["settings.local.json", "settings.json"]) {
    const parsed = await readJson(join(folder, ".claude", file), ctx, "project", []);
    const list = (parsed as { disabledMcpjsonServers?: unknown } | undefined)
      ?.disabledMcpjsonServers;
    if (Array.isArray(list)) {
      for (const name of list) if (typeof name === "string") names.add(name);
    }
  }
  return names;
}

/**
 * Gemini CLI's and Qwen Code's `mcp.allowed` / `mcp.excluded` server names (Qwen Code takes `*`
 * globs): a server excluded, or not allowed when there is an allow list, is kept off.
 */
function settingsFilter(vendor: SetupVendor, parsed: unknown): { has(name: string): boolean } {
  const mcp = (parsed as { mcp?: { allowed?: unknown; excluded?: unknown } } | undefined)?.mcp;
  if ((vendor !== "gemini" && vendor !== "qwen") || typeof mcp !== "object" || mcp === null) {
    return new Set<string>();
  }
  const allowed = nameMatcher(mcp.allowed);
  const excluded = nameMatcher(mcp.excluded);
  return { has: (name) => (allowed !== undefined && !allowed(name)) || excluded?.(name) === true };
}

/** Whether a name matches one of `list`'s names or `*` globs; undefined when it is no list. */
function nameMatcher(list: unknown): ((name: string) => boolean) | undefined {
  if (!Array.isArray(list)) return undefined;
  const globs = list.filter((item): item is string => typeof item === "string").map((glob) =>
    new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")}$`)
  );
  return (name) => globs.some((glob) => glob.test(name));
}
