/** `interpreter mcp …`: runs the command `lib/cli/mcp_cli.ts` parsed (loaded by `main.ts`). */
import { runMcpAdd, runMcpRemove } from "./config_commands.ts";
import { runMcpGet, runMcpList } from "./list_commands.ts";
import { runMcpLogin, runMcpLogout } from "./login.ts";
import type { McpArgs } from "./mcp_args.ts";

/** Runs one `interpreter mcp` command; the exit code. */
export function runMcp(args: McpArgs): Promise<number> {
  switch (args.command) {
    case "add":
      return runMcpAdd(args.name, args.entry);
    case "list":
      return runMcpList(args.json);
    case "get":
      return runMcpGet(args.name, args.json);
    case "remove":
      return runMcpRemove(args.name);
    case "login":
      return runMcpLogin(args.name);
    case "logout":
      return runMcpLogout(args.name);
  }
}
