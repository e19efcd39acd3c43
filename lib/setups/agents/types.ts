/**
 * A sub-agent definition read from our own or another agent's files (issue 33 §2), the same
 * shape whatever the vendor's format (`parse.ts` reads each one; `lib/setups/FORMATS.md`).
 */
import type { NamedDefinition, SetupVendor } from "../sources.ts";

/** One sub-agent a user or a project defined. */
export interface AgentDefinition extends NamedDefinition {
  vendor: SetupVendor;
  /** When to use it, as the model reads it. */
  description: string;
  /** Its system prompt (the file's body, or Codex's `developer_instructions`). */
  prompt: string;
  /** The tools it may use, in the vendor's names as written; undefined inherits every tool. */
  tools?: string[];
  /** Tools taken away (after `tools` is resolved), in the vendor's names. */
  disallowedTools?: string[];
  /** The model it asks for, as written (`sonnet`, `provider/model`, a full id); none inherits. */
  model?: string;
  /** It asked to run read-only (Codex `sandbox_mode = "read-only"`, a `plan` permission mode). */
  readOnly?: boolean;
}

/** The sub-agents a session found, and what went wrong reading them. */
export interface FoundAgents {
  agents: AgentDefinition[];
  /** One line per file that does not load, per unknown tool name and per name clash. */
  warnings: string[];
}

/**
 * The agent types the harnesses offer themselves; a definition with one of these names is not
 * used (built-ins come first), with a warning.
 */
export const BUILTIN_AGENT_TYPES: readonly string[] = Object.freeze([
  "general-purpose",
  "Explore",
  "Plan",
  "general",
  "explore",
  "codebase_investigator",
  "generalist",
  "fork",
]);

/** The agent types each harness offers itself, default first (`/agents` lists them). */
export const HARNESS_AGENT_TYPES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  "claude-code": ["general-purpose", "Explore", "Plan"],
  "qwen-code": ["general-purpose", "Explore"],
  opencode: ["general", "explore"],
  "gemini-cli": ["codebase_investigator", "generalist"],
});
