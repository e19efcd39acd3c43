/**
 * How one `[mcp_servers.ID]` entry is reached, worked out before anything starts: the command
 * line and environment of a stdio server, the URL and headers of a streamable-HTTP one, its
 * timeouts and which of its tools are offered. Pure, so that every rule here is tested alone.
 */
import { isAbsolute, join, resolve } from "node:path";
import type { McpServerEntry } from "../config/schema.ts";
import {
  DEFAULT_MCP_IMAGE_BYTES,
  DEFAULT_MCP_OUTPUT_BYTES,
  type McpOutputCaps,
} from "../tools/mcp_output_caps.ts";

/** `startup_timeout_sec` when unset: initialize and tools/list together. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
/** `tool_timeout_sec` when unset. */
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;

/**
 * Parent environment variables every stdio server gets, as Codex passes them (its
 * `DEFAULT_ENV_VARS`); anything else only through `env_vars` or `env`.
 */
const DEFAULT_ENV_VARS: readonly string[] = Deno.build.os === "windows"
  ? [
    "PATH",
    "PATHEXT",
    "COMSPEC",
    "SYSTEMROOT",
    "SYSTEMDRIVE",
    "WINDIR",
    "USERNAME",
    "USERDOMAIN",
    "USERPROFILE",
    "HOMEDRIVE",
    "HOMEPATH",
    "APPDATA",
    "LOCALAPPDATA",
    "PROGRAMFILES",
    "PROGRAMDATA",
    "TEMP",
    "TMP",
  ]
  : [
    "HOME",
    "LOGNAME",
    "PATH",
    "SHELL",
    "USER",
    "__CF_USER_TEXT_ENCODING",
    "LANG",
    "LC_ALL",
    "TERM",
    "TMPDIR",
    "TZ",
  ];

/** A stdio server's process. */
export interface StdioLaunch {
  transport: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** A streamable-HTTP server's endpoint. */
export interface HttpLaunch {
  transport: "streamable_http";
  url: string;
  headers: Record<string, string>;
}

/** Everything needed to start and use one server. */
export interface McpLaunch {
  id: string;
  /** Its `[mcp_servers.ID]` entry as configured. */
  entry: McpServerEntry;
  /** How it is reached, or why it cannot be (a missing environment variable). */
  target: StdioLaunch | HttpLaunch | { transport: "streamable_http"; problem: string };
  /** The command line or URL, for `/mcp` and messages. */
  display: string;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  /** How much of a result or resource read reaches the model (`max_output_bytes`, ...). */
  outputCaps: McpOutputCaps;
  required: boolean;
  /** `enabled_tools` then `disabled_tools`. */
  offers(tool: string): boolean;
}

/** Where the facts about the session come from. */
export interface LaunchContext {
  /** The environment the session sees (not necessarily the process's). */
  env: Record<string, string>;
  /** The session's working directory: a stdio server's default and what `cwd` resolves against. */
  cwd: string;
}

/** The launch of server `id` from its config entry, which has exactly one of command and url. */
export function launchOf(id: string, entry: McpServerEntry, ctx: LaunchContext): McpLaunch {
  const startup = entry.startup_timeout_sec !== undefined
    ? entry.startup_timeout_sec * 1000
    : entry.startup_timeout_ms ?? DEFAULT_STARTUP_TIMEOUT_MS;
  const tool = entry.tool_timeout_sec !== undefined
    ? entry.tool_timeout_sec * 1000
    : DEFAULT_TOOL_TIMEOUT_MS;
  const enabled = entry.enabled_tools === undefined ? undefined : new Set(entry.enabled_tools);
  const disabled = new Set(entry.disabled_tools ?? []);
  return {
    id,
    entry,
    target: entry.url !== undefined ? httpTarget(id, entry, ctx.env) : stdioTarget(entry, ctx),
    display: entry.url ?? [entry.command ?? "", ...(entry.args ?? [])].join(" "),
    startupTimeoutMs: startup,
    toolTimeoutMs: tool,
    outputCaps: {
      textBytes: entry.max_output_bytes ?? DEFAULT_MCP_OUTPUT_BYTES,
      imageBytes: entry.max_image_bytes ?? DEFAULT_MCP_IMAGE_BYTES,
    },
    required: entry.required === true,
    offers: (name) => (enabled === undefined || enabled.has(name)) && !disabled.has(name),
  };
}

/** Where the stderr of stdio server `id` goes: `<home>/logs/mcp-<id>.log`. */
export function mcpLogFile(home: string, id: string): string {
  return join(home, "logs", `mcp-${id.replace(/[^A-Za-z0-9_.-]/g, "_")}.log`);
}

function stdioTarget(entry: McpServerEntry, ctx: LaunchContext): StdioLaunch {
  const env: Record<string, string> = {};
  for (const name of [...DEFAULT_ENV_VARS, ...(entry.env_vars ?? [])]) {
    const value = ctx.env[name];
    // A bash function exported into the environment is code, not a setting.
    if (value !== undefined && !value.startsWith("()")) env[name] = value;
  }
  Object.assign(env, entry.env ?? {});
  const cwd = entry.cwd === undefined
    ? ctx.cwd
    : isAbsolute(entry.cwd)
    ? entry.cwd
    : resolve(ctx.cwd, entry.cwd);
  return { transport: "stdio", command: entry.command ?? "", args: entry.args ?? [], env, cwd };
}

function httpTarget(
  id: string,
  entry: McpServerEntry,
  env: Record<string, string>,
): HttpLaunch | { transport: "streamable_http"; problem: string } {
  const headers: Record<string, string> = { ...entry.http_headers };
  const missing = (variable: string, key: string) => ({
    transport: "streamable_http" as const,
    problem: `the environment variable ${variable} (${key} of [mcp_servers.${id}]) is not set`,
  });
  for (const [header, variable] of Object.entries(entry.env_http_headers ?? {})) {
    const value = env[variable];
    // Codex leaves a header whose variable is unset out; a token that is missing is an error.
    if (value !== undefined && value !== "") headers[header] = value;
  }
  const tokenVar = entry.bearer_token_env_var;
  if (tokenVar !== undefined) {
    const token = env[tokenVar];
    if (token === undefined || token === "") return missing(tokenVar, "bearer_token_env_var");
    headers["Authorization"] = `Bearer ${token}`;
  }
  return { transport: "streamable_http", url: entry.url ?? "", headers };
}
