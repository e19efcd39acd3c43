/** What `interpreter mcp …` asks for, parsed and checked by `lib/cli/mcp_cli.ts`. */
import type { McpServerEntry } from "../../config/schema.ts";

/** One `interpreter mcp` command with its checked arguments. */
export type McpArgs =
  /** Adds `[mcp_servers.NAME]` with `entry` (a command or a URL) to the user's config.toml. */
  | { command: "add"; name: string; entry: McpServerEntry }
  | { command: "list"; json: boolean }
  | { command: "get"; name: string; json: boolean }
  | { command: "remove" | "login" | "logout"; name: string };
