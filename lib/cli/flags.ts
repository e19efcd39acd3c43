/** The flags of the command line as commander parses them, before they become a `SessionConfig`. */
import type { LocalProvider } from "../config/schema.ts";
import type { ReviewArgs } from "../modes/exec/exec_options.ts";
import type { McpArgs } from "../modes/mcp_cli/mcp_args.ts";
import type { EvalCommand } from "../modes/eval/eval_args.ts";
import type { ExportArgs } from "../modes/export/export_args.ts";
import type { WorktreeArgs } from "../modes/worktree/worktree_args.ts";
import type { DoctorArgs } from "../modes/doctor/doctor_args.ts";

/** Flags every command that opens a session takes (and `debug config`, `debug harness`). */
export interface SharedFlags {
  model?: string;
  oss?: boolean;
  localProvider?: LocalProvider;
  profile?: string;
  sandbox?: "read-only" | "workspace-write" | "danger-full-access";
  askForApproval?: "untrusted" | "on-failure" | "on-request" | "never";
  yolo?: boolean;
  /** `-c key=value` texts, in command-line order. */
  config: string[];
  cd?: string;
  chatCompletions?: boolean;
  skipGitRepoCheck?: boolean;
  /**
   * `--dangerously-bypass-definition-trust` (or its old name `--dangerously-bypass-hook-trust`,
   * which sets it too): a project's hooks and MCP servers run without the user's trust.
   */
  dangerouslyBypassDefinitionTrust?: boolean;
  harness?: string;
  verbose?: boolean;
  /** `exec --ephemeral`: save no session file. */
  ephemeral?: boolean;
  /** `--add-dir`: extra writable roots. */
  addDir?: string[];
  /** `--max-turns N`: `max_turn_steps`, as typed. */
  maxTurns?: string;
  /** `--max-budget-usd X`: `max_budget_usd`, as typed. */
  maxBudgetUsd?: string;
  /** `--plain` (the REPL and `resume`): the accessible plain mode, as `-c plain=true`. */
  plain?: boolean;
  /** `exec review`: what to review, as given. */
  review?: ReviewArgs;
  /** `--worktree [NAME]` (the REPL and exec): start in a new git worktree. */
  worktree?: string | true;
}

/** Which saved session `resume` or `exec resume` continues, as the flags say. */
export interface ResumeFlags {
  /** A session id, the start of one, or a session file. */
  id?: string;
  /** The newest session (of this directory unless `all`). */
  last?: boolean;
  /** Look at sessions of every directory. */
  all?: boolean;
}

/** `exec`'s flags. */
export interface ExecFlags extends SharedFlags {
  /** `--json` (or its alias `--experimental-json`): JSONL events on stdout. */
  json?: boolean;
  experimentalJson?: boolean;
  outputSchema?: string;
  /** Image files; each flag may hold a comma list. */
  image?: string[];
  outputLastMessage?: string;
  /** `--trajectory FILE`: the run as an ATIF trajectory. */
  trajectory?: string;
  /** `--wait-wakeups`: run the wake-ups the model schedules before exec ends. */
  waitWakeups?: boolean;
  /** Sent by newer Codex SDKs; accepted and ignored. */
  threadSource?: string;
  /** Sent by newer Codex SDKs; accepted and ignored. */
  cyberAccessProgram?: string;
  /** `exec resume`: the saved session to continue. */
  resume?: ResumeFlags;
}

/** What the command line asked for, as parsed. */
export type Invocation =
  | { mode: "repl"; prompt?: string; options: SharedFlags }
  /** `fork` is a resume of a copy. */
  | { mode: "resume"; target: ResumeFlags; options: SharedFlags; fork?: boolean }
  | { mode: "exec"; prompt?: string; options: ExecFlags }
  | { mode: "debug_config"; options: SharedFlags }
  /** `tokens`: `--tokens`, the first request's tokens full and lean instead of the report. */
  | { mode: "debug_harness"; id: string; options: SharedFlags; tokens?: boolean }
  | { mode: "trust_changes"; options: { cd?: string } }
  /** `interpreter trust [--yes]`. */
  | { mode: "trust"; options: { cd?: string; yes?: boolean } }
  | { mode: "logout"; provider?: string }
  | { mode: "mcp"; mcp: McpArgs }
  | { mode: "mcp_server"; options: SharedFlags }
  | { mode: "acp"; options: SharedFlags & { login?: boolean } }
  | { mode: "eval"; eval: EvalCommand }
  | { mode: "arena"; argv: string[] }
  /** `interpreter export`. */
  | { mode: "export"; export: ExportArgs }
  | { mode: "worktree"; worktree: WorktreeArgs }
  | { mode: "doctor"; options: DoctorArgs }
  | { mode: "done" };
