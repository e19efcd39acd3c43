/**
 * The parts of a live session that come from setup files (`SessionSetups`, issue 33): its custom
 * commands, defined sub-agents, permission rules and status-line script, and the `debug config`
 * text that lists the setup files read. `LiveSession` hands these calls on.
 */
import { formatConfigDebug } from "../config/debug.ts";
import type { AgentDefinition } from "../setups/agents/types.ts";
import type { PermissionRule, RuleList } from "../setups/permissions/rules.ts";
import type { AgentSession } from "./agent_session.ts";
import { type SessionCommands, sessionCommands } from "./custom_commands.ts";
import type { SessionSetups } from "./setup_types.ts";
import type { TurnSetup } from "./turn_context.ts";

/** The setup parts of the session whose agent session and turn setup the getters give. */
export class LiveSetups implements SessionSetups {
  readonly #agent: () => AgentSession;
  readonly #env: () => Record<string, string>;
  /** Custom slash commands (`/commands`): read once, expanded for a front end to send. */
  readonly commands: SessionCommands;

  constructor(agent: () => AgentSession, turnSetup: () => TurnSetup) {
    this.#agent = agent;
    this.#env = () => turnSetup().parts.env;
    this.commands = sessionCommands(turnSetup);
  }

  get statusLineScript(): SessionSetups["statusLineScript"] {
    return this.#agent().statusLineScript;
  }

  definedAgents(): readonly AgentDefinition[] {
    return this.#agent().subagents?.agents ?? [];
  }

  permissionRules(): readonly PermissionRule[] {
    return this.#agent().permissions?.rules() ?? [];
  }

  async addPermissionRule(list: RuleList, rule: string, o: { project: boolean }) {
    const { addPermissionRule } = await import("../setups/permissions/add_rule.ts");
    return await addPermissionRule(this.#agent(), { list, rule, project: o.project });
  }

  /** What `interpreter debug config` prints: each value with its origin, then the setups read. */
  async debugConfig(): Promise<string> {
    const agent = this.#agent();
    const { setupReportLines } = await import("./setup_report.ts");
    const setups = await setupReportLines(agent.config, {
      env: this.#env(),
      isHeldBack: agent.workspace.isHeldBack,
    });
    return formatConfigDebug(agent.config) + setups.join("\n") + "\n";
  }
}
