/**
 * A sub-agent's tools: the vendor tool names its file gives (Claude Code's `Read`, Gemini CLI's
 * `read_file`, opencode's `read` ...) mapped onto our capabilities, and the harness the
 * sub-agent sees, which offers only those (in the harness's own names). Sub-agents never get
 * the sub-agent tools themselves: nesting stops at one level.
 */
import type { Harness, HarnessTool } from "../../harness/types.ts";
import type { AgentDefinition } from "./types.ts";

const SHELL = [
  "shell.run",
  "shell.start",
  "shell.monitor",
  "shell.stop",
  "shell.list",
  "shell.output",
];
const READ = ["fs.read"];
const EDIT = ["fs.edit"];
const WRITE = ["fs.write"];

/** Vendor tool names (lowercased) → capabilities, across vendors (the names rarely differ). */
// deno-fmt-ignore
const TOOL_CAPABILITIES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  // Claude Code (also opencode's and Qwen Code's lowercase names where they are the same).
  read: READ, write: WRITE, edit: EDIT, multiedit: EDIT, notebookedit: ["fs.notebook_edit"],
  notebookread: READ, grep: ["fs.grep"], glob: ["fs.glob"], ls: ["fs.list"], list: ["fs.list"],
  bash: SHELL, bashoutput: ["shell.output"], killshell: ["shell.stop"], killbash: ["shell.stop"],
  taskstop: ["shell.stop"], monitor: ["shell.monitor"], webfetch: ["web.fetch"],
  websearch: ["web.search"], todowrite: ["todo.write"], todoread: ["todo.write"],
  skill: ["skill.load"], toolsearch: ["tools.search"],
  listmcpresourcestool: ["mcp.list_resources"], readmcpresourcetool: ["mcp.read_resource"],
  patch: EDIT,
  // Gemini CLI and Qwen Code.
  read_file: READ, read_many_files: READ, write_file: WRITE, replace: EDIT,
  grep_search: ["fs.grep"], search_file_content: ["fs.grep"], list_directory: ["fs.list"],
  run_shell_command: SHELL, web_fetch: ["web.fetch"], google_web_search: ["web.search"],
  web_search: ["web.search"], write_todos: ["todo.write"], todo_write: ["todo.write"],
  activate_skill: ["skill.load"], notebook_edit: ["fs.notebook_edit"],
  // Codex.
  shell: SHELL, exec_command: SHELL, apply_patch: EDIT, view_image: READ,
});

/** Names that start a sub-agent: left out of a sub-agent's tools, whatever it asks. */
const AGENT_TOOLS = new Set(["agent", "task", "invoke_agent", "spawn_agent"]);

/** What a definition's tool names come to. */
export interface AgentTools {
  /** Capabilities allowed; undefined allows every one (the definition names no tools). */
  allowed?: Set<string>;
  /** Capabilities taken away. */
  denied: Set<string>;
  /** MCP tools are offered (every one when `tools` is absent; only with an `mcp` pattern). */
  mcp: boolean;
  /** Names no capability matches, for a warning naming the file. */
  unknown: string[];
}

/** The capabilities `definition`'s tool names map to. */
export function agentTools(definition: AgentDefinition): AgentTools {
  const unknown: string[] = [];
  const map = (names: readonly string[], into: Set<string>): boolean => {
    let mcp = false;
    for (const written of names) {
      const name = written.replace(/\(.*\)$/s, "").trim().toLowerCase();
      if (/^mcp(__|_|$)/.test(name) || name === "mcp__*") {
        mcp = true;
        continue;
      }
      if (AGENT_TOOLS.has(name)) continue;
      const capabilities = TOOL_CAPABILITIES[name];
      if (capabilities) { for (const c of capabilities) into.add(c); }
      else unknown.push(written);
    }
    return mcp;
  };
  const denied = new Set<string>();
  const deniesMcp = map(definition.disallowedTools ?? [], denied);
  if (!definition.tools) return { denied, mcp: !deniesMcp, unknown };
  const allowed = new Set<string>();
  const mcp = map(definition.tools, allowed) && !deniesMcp;
  return { allowed, denied, mcp, unknown };
}

/** True when the sub-agent may use `tool`. */
function offered(tool: HarnessTool, tools: AgentTools): boolean {
  const capability = tool.capability;
  if (capability.startsWith("agent.")) return false;
  if (tools.denied.has(capability)) return false;
  return tools.allowed === undefined || tools.allowed.has(capability);
}

/** `harness` with only the tools `tools` allows (its code-mode view narrowed alike). */
export function restrictHarness(harness: Harness, tools: AgentTools): Harness {
  const keep = (list: readonly HarnessTool[]) => list.filter((t) => offered(t, tools));
  return {
    ...harness,
    tools: keep(harness.tools),
    ...(harness.codeMode
      ? { codeMode: { ...harness.codeMode, tools: keep(harness.codeMode.tools) } }
      : {}),
  };
}

/** The harness's names of the tools `tools` allows, as a listing shows them. */
export function toolNames(harness: Harness, tools: AgentTools): string[] {
  const names = harness.tools.filter((t) => !t.nested && offered(t, tools))
    .map((t) => t.declaration.name);
  return [...new Set(names)];
}

/** Capabilities that only read files. */
const READING = ["fs.read", "fs.grep", "fs.glob", "fs.list"];

/**
 * `definition`'s tools in `harness`. A harness with no file-reading tool of its own (Codex's
 * reads through the shell) gives an agent that may only read files its shell instead, kept
 * read-only (`readOnlyShell`): only commands known to only read run.
 */
export function harnessTools(
  harness: Harness,
  definition: AgentDefinition,
): { tools: AgentTools; readOnlyShell: boolean } {
  const tools = agentTools(definition);
  const allowed = tools.allowed;
  if (!allowed || SHELL.some((c) => allowed.has(c))) return { tools, readOnlyShell: false };
  const has = (c: string) => harness.tools.some((t) => t.capability === c && !t.nested);
  const reads = READING.filter((c) => allowed.has(c));
  if (reads.length === 0 || reads.some(has) || !has("shell.run")) {
    return { tools, readOnlyShell: false };
  }
  return { tools: { ...tools, allowed: new Set([...allowed, "shell.run"]) }, readOnlyShell: true };
}
