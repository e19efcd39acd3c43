/**
 * The runnable definitions a project brings, as the user is asked to trust them: its hooks
 * (found by `lib/hooks/discovery.ts`) and its MCP servers, found here. An MCP server is the
 * project's when any of its effective `[mcp_servers.ID]` values comes from the project's
 * `.openinterpreter/config.toml` (directly or through a profile it defines): a project that adds
 * one key to a server of the user's config changes what that server runs. Its digest covers its
 * whole effective entry but `enabled`, so any change makes it untrusted again.
 */
import { join } from "node:path";
import { splitKeyPath } from "./_keypath.ts";
import type { EffectiveConfig } from "./effective.ts";
import type { Origin } from "./origin.ts";
import type { McpServerEntry } from "./schema.ts";

/**
 * The kinds of runnable definition a project brings: hooks and MCP servers (ours and other
 * agents'), custom commands with shell pre-execution, a command's `allowed-tools`, permission
 * allow rules, status-line commands and `env` values (lib/setups).
 */
export type RunnableKind =
  | "hook"
  | "mcp_server"
  | "command"
  | "allowed_tools"
  | "allow_rule"
  | "status_line"
  | "env";

/** One runnable definition of a project. */
export interface RunnableDefinition {
  kind: RunnableKind;
  /** A hook's event (and matcher), a server's id, a command's or a rule's name. */
  name: string;
  /** What runs: a hook's command, a server's command line (with its env and cwd) or URL. */
  command: string;
  /** The file that defines it. */
  source: string;
  /** The digest of its exact definition, under which the user's trust in it is kept. */
  key: string;
}

/** The project's enabled MCP servers in `config`, in config order. */
export async function projectMcpDefinitions(
  config: Pick<EffectiveConfig, "projectRoot" | "files" | "entries" | "values">,
): Promise<RunnableDefinition[]> {
  const file = join(config.projectRoot, ".openinterpreter", "config.toml");
  if (!config.files.includes(file)) return [];
  const ids = new Set<string>();
  for (const entry of config.entries()) {
    const path = splitKeyPath(entry.key);
    if (path?.[0] === "mcp_servers" && path.length > 2 && fromFile(entry.origin, file)) {
      ids.add(path[1]);
    }
  }
  const out: RunnableDefinition[] = [];
  for (const [id, server] of Object.entries(config.values.mcp_servers ?? {})) {
    if (!ids.has(id) || server.enabled === false) continue;
    const { enabled: _, ...definition } = server;
    out.push({
      kind: "mcp_server",
      name: id,
      command: serverCommand(server),
      source: file,
      key: await definitionDigest(["mcp_server", id, definition]),
    });
  }
  return out;
}

/** The SHA-256 of `value` as JSON with every object's keys sorted, in hex. */
export async function definitionDigest(value: unknown): Promise<string> {
  const text = canonicalJson(value);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** `value` as JSON with every object's keys sorted, so that key order does not count. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortedKeys(v)]));
}

function fromFile(origin: Origin, file: string): boolean {
  return origin.kind === "project" || (origin.kind === "profile" && origin.file === file);
}

/** A server's command line with its env and cwd, or its URL with the variables it sends. */
function serverCommand(server: McpServerEntry): string {
  if (server.url !== undefined) {
    const sent = [
      server.bearer_token_env_var,
      ...Object.values(server.env_http_headers ?? {}),
    ].filter((name) => name !== undefined).map((name) => `$${name}`);
    return sent.length ? `${server.url} (sends ${sent.join(", ")})` : server.url;
  }
  const env = Object.entries(server.env ?? {}).map(([k, v]) => shellWord(`${k}=${v}`));
  const line = [...env, ...[server.command ?? "", ...server.args ?? []].map(shellWord)].join(" ");
  const passed = (server.env_vars ?? []).map((name) => `$${name}`);
  const notes = [
    ...(server.cwd !== undefined ? [`in ${server.cwd}`] : []),
    ...(passed.length ? [`gets ${passed.join(", ")}`] : []),
  ];
  return notes.length ? `${line} (${notes.join("; ")})` : line;
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
