/**
 * What a session offers of the setups people wrote for us and for other agents (issue 33,
 * lib/setups): custom commands, defined sub-agents, permission rules and a status-line script.
 */
import type { AgentDefinition } from "../setups/agents/types.ts";
import type { AddedRule } from "../setups/permissions/add_rule.ts";
import type { PermissionRule, RuleList } from "../setups/permissions/rules.ts";
import type { SessionCommands } from "./custom_command_types.ts";

/** The parts of a `Session` that come from setup files. */
export interface SessionSetups {
  /** The status-line script the REPL runs (`status_line_command`, Claude Code's `statusLine`). */
  readonly statusLineScript?: {
    command: string;
    padding: number;
    source: string;
    projectDir: string;
  };
  /**
   * The sub-agents users and projects defined in our and other agents' files, as the session
   * read them at its start, with where each comes from (`/agents`).
   */
  definedAgents?(): readonly AgentDefinition[];
  /** The custom slash commands of ours and other agents' files (`/commands`). */
  readonly commands: SessionCommands;
  /** The permission rules in force, deny first, each with its file (`/permissions`). */
  permissionRules?(): readonly PermissionRule[];
  /** Adds a rule to the user's (or `project`'s) config.toml and to this session at once. */
  addPermissionRule?(list: RuleList, rule: string, o: { project: boolean }): Promise<AddedRule>;
}
