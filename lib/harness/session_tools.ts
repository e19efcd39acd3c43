/**
 * Tools a harness offers only in some sessions: a `[[tools]]` entry with `when` is kept only
 * when the session has what it names. Claude Code and Codex send their MCP resource tools only
 * when MCP servers are configured (`when = "mcp_servers"`); Gemini CLI run headless leaves out
 * the tools that change things when nobody could approve them (`when = "changes_allowed"`). The
 * session applies this to every harness it runs with, so the tools sent, the deferred names in
 * the prompt and the tool search all agree.
 */
import type { Harness, HarnessTool } from "./types.ts";

/**
 * The capabilities that need someone to answer: plan mode's tools (someone approves the plan)
 * and the questions to the user.
 */
const ASKING_CAPABILITIES = ["plan.enter", "plan.exit", "user.ask"];

/** What the session has, for the tools' `when`. */
export interface SessionFacts {
  /** One or more MCP servers are configured and enabled. */
  mcpServers: boolean;
  /**
   * Someone answers the model's questions and its plans (a terminal or a client); when false,
   * the plan and question tools are left out, as no one could answer them (Claude Code run
   * headless sends no plan tools).
   */
  answersQuestions?: boolean;
  /**
   * A change to files can run, or be approved by someone, under the policy in force (see
   * `changesAllowed()`); taken as true when absent.
   */
  changesAllowed?: boolean;
  /**
   * A web search can run: the sandbox allows network access and `[web_search_backend]` names a
   * backend. When false, the `web.search` tools are left out; taken as true when absent.
   */
  webSearch?: boolean;
  /** The model takes images; when false the image tools (`image.*`) are left out. */
  takesImages?: boolean;
  /** True for a capability permission rules deny outright (`Bash` in deny): left out. */
  hidden?: (capability: string) => boolean;
}

/** `h` without the tools whose `when` the session does not meet (`h` itself when none). */
export function toolsForSession(h: Harness, facts: SessionFacts): Harness {
  const keep = (t: HarnessTool) =>
    (t.when === undefined || meets(t.when, facts)) &&
    !(facts.answersQuestions === false && ASKING_CAPABILITIES.includes(t.capability)) &&
    !(facts.webSearch === false && t.capability === "web.search") &&
    !(facts.takesImages === false && t.capability.startsWith("image.")) &&
    !facts.hidden?.(t.capability);
  const kept = h.tools.filter(keep);
  const cm = h.codeMode;
  const codeTools = cm?.tools.filter(keep);
  if (kept.length === h.tools.length && codeTools?.length === cm?.tools.length) return h;
  return { ...h, tools: kept, ...(cm ? { codeMode: { ...cm, tools: codeTools! } } : {}) };
}

/**
 * Whether a change to files can happen under `sandbox_mode` and `approval_policy`: a read-only
 * sandbox refuses every change, and `untrusted` asks before each one, which needs someone to
 * ask (`canAsk`: a terminal or a client that answers approval questions).
 */
export function changesAllowed(
  mode: "read-only" | "workspace-write" | "danger-full-access",
  policy: "untrusted" | "on-failure" | "on-request" | "never",
  canAsk: boolean,
): boolean {
  return mode !== "read-only" && (policy !== "untrusted" || canAsk);
}

/**
 * Whether web search can run under `values`: the sandbox mode reaches the network and a backend
 * is configured in `[web_search_backend]`.
 */
export function webSearchAvailable(values: {
  sandbox_mode: string;
  sandbox_workspace_write: { network_access: boolean };
  web_search_backend?: unknown;
}): boolean {
  const network = values.sandbox_mode === "danger-full-access" ||
    (values.sandbox_mode === "workspace-write" && values.sandbox_workspace_write.network_access);
  return network && values.web_search_backend !== undefined;
}

function meets(condition: NonNullable<HarnessTool["when"]>, facts: SessionFacts): boolean {
  switch (condition) {
    case "mcp_servers":
      return facts.mcpServers;
    case "changes_allowed":
      return facts.changesAllowed !== false;
  }
}
