/** `interpreter mcp-server`: serve the agent as MCP tools on stdio, as `codex mcp-server` does. */
import type { Command } from "commander";
import type { Invocation, SharedFlags } from "./flags.ts";

/** Adds `mcp-server` to `program`; the shared flags set what every session it runs starts from. */
export function addMcpServerCommand(
  program: Command,
  addShared: (cmd: Command) => Command,
  onInvoke: (inv: Invocation) => void,
): void {
  addShared(
    program.command("mcp-server").description(
      "serve the agent as MCP tools (codex, codex-reply) over stdin and stdout",
    ),
  ).action((options: SharedFlags) => onInvoke({ mode: "mcp_server", options }));
}
