/**
 * The modules `main.ts` loads for each command, by path from the repository root. They are
 * loaded by computed specifier, not by literal `import("…")`: `deno run` loads every literal
 * dynamic import of the entry point at launch, which costs `interpreter --version` about 15 ms.
 * `scripts/compile.ts` `--include`s each one, since a compiled binary only holds the modules its
 * graph names.
 */
export const ENTRY_MODULES = {
  cli: "lib/cli/cli.ts",
  repl: "lib/modes/repl/repl.ts",
  exec: "lib/modes/exec/exec.ts",
  debugConfig: "lib/modes/debug/debug_config.ts",
  debugHarness: "lib/modes/debug/debug_harness.ts",
  trustChanges: "lib/modes/debug/trust_changes.ts",
  trust: "lib/modes/debug/trust_project.ts",
  logout: "lib/modes/debug/logout.ts",
  mcp: "lib/modes/mcp_cli/mcp.ts",
  mcpServer: "lib/modes/mcp_server/mcp_server.ts",
  acp: "lib/modes/acp/acp.ts",
  eval: "lib/modes/eval/eval.ts",
  export: "lib/modes/export/export.ts",
  worktree: "lib/modes/worktree/worktree.ts",
  doctor: "lib/modes/doctor/doctor.ts",
  arena: "lib/cli/arena_cli.ts",
  fsHelper: "sandbox/fs_helper_main.ts",
  codeCell: "sandbox/code_cell_main.ts",
} as const;
