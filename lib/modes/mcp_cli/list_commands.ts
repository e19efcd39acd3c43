// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
/**
 * `interpreter mcp list [--json]` and `interpreter mcp get NAME [--json]`: the MCP servers a
 * session started here would have (the user's config.toml, a trusted project's, and other
 * agents' files such as `.mcp.json`, named with their source and whether they are trusted yet).
 * The JSON has the shape of `codex mcp list --json` / `get --json` (plus `source` for a server
 * of another agent's file); both hide `env` and header values.
 */
import { terminalText } from "../../approval/visible.ts";
import { loadConfig } from "../../config/load.ts";
import type { McpServerEntry } from "../../config/schema.ts";
import { UsageError } from "../../errors.ts";
import { nearestNames } from "../../nearest.ts";
import { type SetupServerInfo, withSetupServers } from "./setup_servers.ts";

/** What `env` and header values show as: they often hold keys. */
const HIDDEN = "*****";

/** The servers of the effective configuration, and the file that sets each. */
export interface ConfiguredServers {
  servers: Record<string, McpServerEntry>;
  /** The config file that sets server `name` (the highest-precedence one). */
  fileOf(name: string): string | undefined;
  /** The servers of other agents' files, by id. */
  setup: Map<string, SetupServerInfo>;
}

/** The servers a session in the current directory would get. */
export async function configuredServers(): Promise<ConfiguredServers> {
  const env = Deno.env.toObject();
  const config = await loadConfig({ cwd: Deno.cwd(), env, flags: {}, overrides: [] });
  const { servers, setup, warnings } = await withSetupServers(config, env);
  for (const message of warnings) console.error(`warning: ${terminalText(message)}`);
  return {
    servers,
    setup,
    fileOf(name) {
      const other = setup.get(name);
      if (other) return other.file;
      const origin = config.origin(`mcp_servers.${JSON.stringify(name)}`);
      return origin && "file" in origin ? origin.file : undefined;
    },
  };
}

/** Prints every configured server, as tables or (`json`) a JSON array. */
export async function runMcpList(json: boolean): Promise<number> {
  const { servers, setup } = await configuredServers();
  const names = Object.keys(servers).sort();
  if (json) {
    const all = names.map((name) => withSource(serverJson(name, servers[name]), setup.get(name)));
    console.log(JSON.stringify(all, null, 2));
    return 0;
  }
  console.log(serverListLines(servers, setup).map(terminalText).join("\n"));
  return 0;
}

/** Prints one server's settings, as lines or (`json`) a JSON object. */
export async function runMcpGet(name: string, json: boolean): Promise<number> {
  const { servers, fileOf, setup } = await configuredServers();
  const entry = Object.hasOwn(servers, name) ? servers[name] : undefined;
  if (!entry) throw unknownServer(name, Object.keys(servers));
  if (json) {
    const { tools, required, default_tools_approval_mode } = entry;
    const more = {
      required: required ?? false,
      default_tools_approval_mode: default_tools_approval_mode ?? null,
      tools: tools ?? {},
    };
    const shown = withSource({ ...serverJson(name, entry, true), ...more }, setup.get(name));
    console.log(JSON.stringify(shown, null, 2));
    return 0;
  }
  const lines = serverDetailLines(name, entry, fileOf(name), setup.get(name));
  console.log(lines.map(terminalText).join("\n"));
  return 0;
}

/** The error for a server name that is not configured, with the names that are. */
export function unknownServer(name: string, known: string[]): UsageError {
  const near = nearestNames(name, known);
  const hint = known.length === 0
    ? `No servers are configured; add one with "interpreter mcp add ${name} -- COMMAND [ARGS...]"`
    : near.length > 0
    ? `Did you mean ${near.map((n) => `"${n}"`).join(" or ")}? "interpreter mcp list" lists them`
    : `The configured servers: ${known.sort().join(", ")}`;
  return new UsageError(`No MCP server "${name}" is configured`, { hint });
}

/** One server as `codex mcp list --json` shows it; `detail` adds `get --json`'s tool lists. */
export function serverJson(name: string, entry: McpServerEntry, detail = false) {
  const transport = entry.url !== undefined
    ? {
      type: "streamable_http",
      url: entry.url,
      bearer_token_env_var: entry.bearer_token_env_var ?? null,
      http_headers: masked(entry.http_headers),
      env_http_headers: entry.env_http_headers ?? null,
    }
    : {
      type: "stdio",
      command: entry.command,
      args: entry.args ?? [],
      env: masked(entry.env),
      env_vars: entry.env_vars ?? [],
      cwd: entry.cwd ?? null,
    };
  const tools = detail
    ? { enabled_tools: entry.enabled_tools ?? null, disabled_tools: entry.disabled_tools ?? null }
    : {};
  return {
    name,
    enabled: entry.enabled ?? true,
    disabled_reason: null,
    transport,
    ...tools,
    startup_timeout_sec: startupTimeoutSec(entry) ?? null,
    tool_timeout_sec: entry.tool_timeout_sec ?? null,
  };
}

/** How a server not trusted yet is shown, and why it does not start. */
const UNTRUSTED = 'not trusted yet: review and trust it with "interpreter trust"';

/** `json` with the source of a server of another agent's file, and why it may not start. */
function withSource<T extends { disabled_reason: string | null }>(json: T, info?: SetupServerInfo) {
  if (!info) return json;
  const { file, vendor, trusted } = info;
  return {
    ...json,
    disabled_reason: trusted ? json.disabled_reason : UNTRUSTED,
    source: { file, vendor, trusted },
  };
}

/** The keys of `map` with every value hidden, as the text view shows them; null when unset. */
function masked(map: Record<string, string> | undefined): Record<string, string> | null {
  if (map === undefined) return null;
  return Object.fromEntries(Object.keys(map).map((key) => [key, HIDDEN]));
}

function startupTimeoutSec(entry: McpServerEntry): number | undefined {
  if (entry.startup_timeout_sec !== undefined) return entry.startup_timeout_sec;
  return entry.startup_timeout_ms === undefined ? undefined : entry.startup_timeout_ms / 1000;
}

/** `mcp list`: a table of the stdio servers and one of the HTTP servers. */
function serverListLines(
  servers: Record<string, McpServerEntry>,
  setup: Map<string, SetupServerInfo>,
): string[] {
  const names = Object.keys(servers).sort();
  if (names.length === 0) {
    return [
      "No MCP servers are configured. Add one with",
      "  interpreter mcp add NAME -- COMMAND [ARGS...]   (a server started as a command, stdio)",
      "  interpreter mcp add NAME --url URL             (a streamable HTTP server)",
    ];
  }
  const stdio: string[][] = [];
  const http: string[][] = [];
  for (const name of names) {
    const s = servers[name];
    const info = setup.get(name);
    const status = s.enabled === false
      ? "disabled"
      : info?.trusted === false
      ? "untrusted"
      : "enabled";
    // Servers of other agents' files name theirs; a table gets the column when one has it.
    const source = info ? [`${info.file} (${info.vendor})`] : setup.size ? ["config.toml"] : [];
    if (s.url !== undefined) {
      http.push([name, s.url, s.bearer_token_env_var ?? "-", status, ...source]);
    } else {
      const args = s.args?.length ? s.args.join(" ") : "-";
      stdio.push([name, s.command ?? "-", args, envText(s), s.cwd ?? "-", status, ...source]);
    }
  }
  const sourceHead = setup.size ? ["Source"] : [];
  const out: string[] = [];
  if (stdio.length) {
    out.push(...table(["Name", "Command", "Args", "Env", "Cwd", "Status", ...sourceHead], stdio));
  }
  if (stdio.length && http.length) out.push("");
  if (http.length) {
    out.push(...table(["Name", "Url", "Bearer Token Env Var", "Status", ...sourceHead], http));
  }
  if ([...setup.values()].some((info) => !info.trusted)) {
    out.push("", `untrusted: the project's definition is ${UNTRUSTED}`);
  }
  return out;
}

/** `mcp get`: every setting of one server, one per line. */
export function serverDetailLines(
  name: string,
  entry: McpServerEntry,
  file?: string,
  setup?: SetupServerInfo,
): string[] {
  const rows: Array<[string, string | undefined]> = [
    ["enabled", String(entry.enabled ?? true)],
    ["required", entry.required === undefined ? undefined : String(entry.required)],
  ];
  if (entry.url !== undefined) {
    rows.push(
      ["transport", "streamable_http"],
      ["url", entry.url],
      ["bearer_token_env_var", entry.bearer_token_env_var ?? "-"],
      ["http_headers", pairs(entry.http_headers, () => HIDDEN)],
      ["env_http_headers", pairs(entry.env_http_headers, (v) => v)],
    );
  } else {
    rows.push(
      ["transport", "stdio"],
      ["command", entry.command],
      ["args", entry.args?.length ? entry.args.join(" ") : "-"],
      ["cwd", entry.cwd ?? "-"],
      ["env", envText(entry)],
    );
  }
  const timeout = startupTimeoutSec(entry);
  rows.push(
    ["enabled_tools", entry.enabled_tools?.join(", ")],
    ["disabled_tools", entry.disabled_tools?.join(", ")],
    ["startup_timeout_sec", timeout === undefined ? undefined : String(timeout)],
    ["tool_timeout_sec", entry.tool_timeout_sec?.toString()],
    ["max_output_bytes", entry.max_output_bytes?.toString()],
    ["max_image_bytes", entry.max_image_bytes?.toString()],
    ["default_tools_approval_mode", entry.default_tools_approval_mode],
    ...Object.entries(entry.tools ?? {}).map(([tool, settings]): [string, string | undefined] => [
      `tools.${tool}.approval_mode`,
      settings.approval_mode,
    ]),
    ["file", setup ? `${file} (${setup.vendor})` : file],
    ["trusted", setup && !setup.trusted ? `no: ${UNTRUSTED}` : undefined],
    ["remove", setup ? `edit ${setup.file}` : `interpreter mcp remove ${name}`],
  );
  return [name, ...rows.filter(([, v]) => v !== undefined).map(([k, v]) => `  ${k}: ${v}`)];
}

/** `env` with its values hidden, then `env_vars` (passed from the environment). */
function envText(entry: McpServerEntry): string {
  const set = Object.keys(entry.env ?? {}).sort().map((key) => `${key}=${HIDDEN}`);
  const passed = entry.env_vars ?? [];
  return [...set, ...passed].join(", ") || "-";
}

function pairs(map: Record<string, string> | undefined, show: (value: string) => string): string {
  const keys = Object.keys(map ?? {}).sort();
  return keys.map((key) => `${key}=${show(map![key])}`).join(", ") || "-";
}

function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [line(head), ...rows.map(line)];
}
