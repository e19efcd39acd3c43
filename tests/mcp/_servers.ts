/**
 * Test helpers: the real MCP servers the tests start (the npm packages pinned in
 * `tests/mcp_servers/`, run by Deno; our own SDK-built `_test_server.ts`), as config entries
 * and TOML, and a check of the process table for servers left behind.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { McpServerEntry } from "../../lib/config/schema.ts";
import { until } from "../e2e/_poll.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const PINS = `${REPO}tests/mcp_servers/servers.json`;
const LOCK = `${REPO}tests/mcp_servers/servers.lock`;
/** The version both npm servers are pinned to (and `scripts/test` caches). */
const VERSION = "2026.8.31";

/**
 * Where this Deno keeps its npm packages: servers get it as `DENO_DIR`, because a test session's
 * `HOME` is a temporary folder and the packages would otherwise be fetched again.
 */
export async function denoDir(): Promise<string> {
  const given = Deno.env.get("DENO_DIR");
  if (given) return given;
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

/** `@modelcontextprotocol/server-<name>` over stdio, run by Deno from the pinned lock. */
export function npmServer(
  name: "everything" | "filesystem",
  args: string[],
  dir: string,
  extra: McpServerEntry = {},
): McpServerEntry {
  return {
    command: Deno.execPath(),
    args: [
      "run",
      "-A",
      "--quiet",
      "--config",
      PINS,
      "--lock",
      LOCK,
      "--frozen",
      `npm:@modelcontextprotocol/server-${name}@${VERSION}`,
      ...args,
    ],
    env: { DENO_DIR: dir },
    ...extra,
  };
}

/** Our own server (`_test_server.ts`) in `mode`; `marker` shows up in its command line. */
export function testServer(
  mode: "crash_once" | "crash_always" | "hang" | "hang_children" | "plain" | "outputs" | "echo",
  marker: string,
  extra: McpServerEntry = {},
): McpServerEntry {
  return {
    command: Deno.execPath(),
    args: [
      "run",
      "-A",
      "--quiet",
      "--config",
      `${REPO}deno.json`,
      "--frozen",
      `${REPO}tests/mcp/_test_server.ts`,
      mode,
      marker,
    ],
    ...extra,
  };
}

/** `[mcp_servers.<id>]` tables for a config.toml. */
export function serversToml(servers: Record<string, McpServerEntry>): string {
  return Object.entries(servers).map(([id, entry]) => {
    const lines = [`[mcp_servers.${JSON.stringify(id)}]`];
    const tables: string[] = [];
    for (const [key, value] of Object.entries(entry)) {
      if (key === "tools") {
        for (const [tool, mode] of Object.entries(value as Record<string, unknown>)) {
          tables.push(`[mcp_servers.${JSON.stringify(id)}.tools.${JSON.stringify(tool)}]`);
          tables.push(...Object.entries(mode as object).map(([k, v]) => `${k} = ${toml(v)}`));
        }
      } else {
        lines.push(`${key} = ${toml(value)}`);
      }
    }
    return [...lines, ...tables].join("\n");
  }).join("\n\n");
}

function toml(value: unknown): string {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const pairs = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)} = ${toml(v)}`);
    return `{ ${pairs.join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** The command lines of running processes that contain `marker`. */
export async function processesWith(marker: string): Promise<string[]> {
  const out = await new Deno.Command("ps", { args: ["-eo", "args="] }).output();
  return new TextDecoder().decode(out.stdout).split("\n")
    .filter((line) => line.includes(marker) && !line.startsWith("ps "));
}

/** Fails when a process whose command line contains `marker` is still running after a while. */
export async function assertNoProcesses(marker: string): Promise<void> {
  let left: string[] = [];
  // On time-out the assertion below names the processes left.
  await until(
    "the MCP server processes to end",
    async () => (left = await processesWith(marker)).length === 0,
    5000,
  ).catch(() => {});
  assert.deepEqual(left, [], "no MCP server process is left behind");
}
