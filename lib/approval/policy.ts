/**
 * Which tool calls run, which need the user's approval and which are refused, from
 * `approval_policy` and the session's sandbox (interfaces.md §6.4, §7). Pure: the hook in
 * `hook.ts` asks the user and applies the answer.
 */
import { delimiter, isAbsolute } from "node:path";
import { isKnownSafeShellCall } from "./known_safe.ts";

/** Values of `approval_policy`. */
export type ApprovalPolicy = "untrusted" | "on-failure" | "on-request" | "never";

/** What the approval policy needs to know about the session's sandbox. */
export interface SandboxFacts {
  mode: "read-only" | "workspace-write" | "danger-full-access";
  /** False when a sandboxed mode cannot be enforced here (bwrap broken, Windows). */
  enforced: boolean;
  /** Why it cannot be enforced, and the fix. */
  problem?: { message: string; hint: string };
}

/** One resolved tool call. */
export interface ApprovalRequest {
  capability: string;
  /** The capability's `mutates` flag. */
  mutates: boolean;
  input: unknown;
  sandbox: SandboxFacts;
  /**
   * The environment commands run with. When given, no command is known safe unless its `PATH`
   * lists absolute folders only: an empty or relative entry would look bare names up in the
   * working directory.
   */
  env?: Record<string, string>;
}

/**
 * The verdict. `unsandboxed` means the call, once allowed or approved, runs outside the OS
 * sandbox; `reason` is shown to the user (ask) or the model (deny).
 */
export type ApprovalDecision =
  | { decision: "allow"; unsandboxed: boolean }
  | { decision: "ask"; unsandboxed: boolean; reason: string }
  | { decision: "deny"; reason: string; hint?: string };

/** Capabilities that run a command line, which the OS sandbox confines (foreground or background). */
export const COMMAND_CAPABILITIES: ReadonlySet<string> = new Set([
  "shell.run",
  "shell.start",
  "shell.monitor",
]);

/**
 * Capabilities that reach the network from the agent's own process, outside the command sandbox:
 * under `untrusted` they ask first, as a command that is not known safe (`curl`) does.
 */
export const NETWORK_CAPABILITIES: ReadonlySet<string> = new Set(["web.fetch", "web.search"]);

/**
 * Every input field of the command capabilities and what it means here: `runs` fields decide
 * which program runs and where (the known-safe check and the approval question see them),
 * `escalates` fields ask to leave the sandbox, `inert` ones change neither. A test fails when a
 * command capability has a field that is not listed.
 */
export const COMMAND_FIELDS: Readonly<Record<string, "runs" | "escalates" | "inert">> = {
  command: "runs",
  shell: "runs",
  login: "runs",
  cwd: "runs",
  escalated: "escalates",
  sandbox_permissions: "escalates",
  justification: "inert",
  timeout_ms: "inert",
  min_timeout_ms: "inert",
  description: "inert",
  // shell.monitor: which running job to watch and what to wait for.
  id: "inert",
  pid: "inert",
  pattern: "inert",
  // Interactive sessions (exec_session.ts): how long to wait and how the output comes back.
  session: "inert",
  yield_ms: "inert",
  tty: "inert",
  max_output_tokens: "inert",
};

/** Decides whether a call runs, needs approval, or is refused. */
export function approvalDecision(
  policy: ApprovalPolicy,
  req: ApprovalRequest,
): ApprovalDecision {
  if (COMMAND_CAPABILITIES.has(req.capability)) return commandDecision(policy, req);
  if (NETWORK_CAPABILITIES.has(req.capability) && policy === "untrusted") {
    return {
      decision: "ask",
      unsandboxed: false,
      reason: "approval_policy is untrusted and it reaches the network",
    };
  }
  if (!req.mutates) return { decision: "allow", unsandboxed: false };
  if (req.sandbox.mode === "read-only") {
    return {
      decision: "deny",
      reason: `The session sandbox is read-only: ${req.capability} cannot change files`,
      hint: "Tell the user what you wanted to change and why; files cannot be changed here",
    };
  }
  if (policy === "untrusted") {
    return { decision: "ask", unsandboxed: false, reason: "approval_policy is untrusted" };
  }
  return { decision: "allow", unsandboxed: false };
}

/** What a command capability's input runs, and whether it asks to leave the sandbox. */
export interface CommandCall {
  command: string;
  /** The shell program (`shell.run`'s `shell`); absent means bash. */
  shell?: string;
  login: boolean;
  cwd?: string;
  escalated: boolean;
}

/** Reads the fields of a command capability's input that decide what runs and where. */
export function commandOf(input: unknown): CommandCall {
  const o = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  return {
    command: typeof o.command === "string" ? o.command : "",
    shell: typeof o.shell === "string" ? o.shell : undefined,
    login: o.login === true,
    cwd: typeof o.cwd === "string" ? o.cwd : undefined,
    escalated: o.escalated === true || o.sandbox_permissions === "require_escalated",
  };
}

/**
 * The command line as the user should see it before approving: the command, preceded by the
 * shell and its flag when they are not the default `bash -c`, followed by the working folder
 * when the call gives one.
 */
export function commandSubject(call: CommandCall): string {
  const shell = call.shell ?? "bash";
  const line = shell === "bash" && !call.login
    ? call.command
    : `${shell} ${call.login ? "-lc" : "-c"} '${call.command.replaceAll("'", `'\\''`)}'`;
  return call.cwd === undefined ? line : `${line}  (in ${call.cwd})`;
}

/**
 * The URL a web fetch input asks for, as the user should see it before approving: `url`, else
 * the first http(s) URL in `prompt` (Gemini writes it there), the way `web.fetch` picks it; for
 * a web search, `web search: <query>`.
 */
export function fetchUrlOf(input: unknown): string {
  const o = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  // A web search's question names its query.
  if (typeof o.query === "string" && o.url === undefined) return `web search: ${o.query}`;
  const text = typeof o.url === "string"
    ? o.url
    : typeof o.prompt === "string"
    ? o.prompt.match(/https?:\/\/[^\s<>"'`)\]]+/)?.[0] ?? ""
    : "";
  return URL.canParse(text) ? new URL(text).href : text;
}

/** True when every entry of `path` is an absolute folder. */
function lookupIsStable(path: string | undefined): boolean {
  return path !== undefined && path.split(delimiter).every((dir) => isAbsolute(dir));
}

function commandDecision(policy: ApprovalPolicy, req: ApprovalRequest): ApprovalDecision {
  const call = commandOf(req.input);
  const { escalated } = call;
  const knownSafe = isKnownSafeShellCall(call) &&
    (req.env === undefined || lookupIsStable(req.env.PATH));
  const full = req.sandbox.mode === "danger-full-access";
  if (escalated && !full) {
    if (policy === "never") {
      return {
        decision: "deny",
        reason: "The command asks to run outside the sandbox, but approval_policy is never",
        hint: "Run it inside the sandbox, or find another way",
      };
    }
    return { decision: "ask", unsandboxed: true, reason: "it asks to run outside the sandbox" };
  }
  const sandboxed = full || req.sandbox.enforced;
  if (knownSafe) return { decision: "allow", unsandboxed: !sandboxed };
  if (!sandboxed) {
    const problem = req.sandbox.problem?.message ?? "the command sandbox is unavailable";
    if (policy === "never") {
      return {
        decision: "deny",
        reason: `${problem}, and approval_policy is never: the command was not run`,
        // The problem's own hint is the fix for the user, which the model cannot apply.
        hint: "Tell the user what you wanted to run and why; commands that are not known to " +
          "be read-only cannot run here",
      };
    }
    return { decision: "ask", unsandboxed: true, reason: `${problem}; it would run unsandboxed` };
  }
  if (policy === "untrusted") {
    return {
      decision: "ask",
      unsandboxed: full,
      reason: "approval_policy is untrusted and the command is not known to be safe",
    };
  }
  return { decision: "allow", unsandboxed: full };
}
