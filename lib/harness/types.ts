import type { ToolDeclaration } from "../model/message.ts";
import type { RequestSpecs, WireRequestSpec } from "../model/request_settings.ts";
import type { WireApi } from "../providers/types.ts";
import type { LoopShape } from "./loop_shape_names.ts";

/** How a capability's structured output becomes the text the model reads. Data from the spec. */
export interface ResultFormat {
  /** Template with `{field}` placeholders filled from the capability output. */
  template: string;
  /** Replaces `{output}` when that field is empty. */
  emptyOutput?: string;
  /** Output fields (snake_case) any of which, when present, makes the result an error. */
  errorIf?: string[];
  /** Template for an error result, in place of `template`; `emptyOutput` does not apply. */
  failedTemplate?: string;
  /**
   * The result in several text parts (Codex code mode): the template's text first, then each
   * string of output field `field`, then `last` rendered (left out when empty).
   */
  parts?: { field: string; last?: string };
}

/** One tool as a harness advertises it and maps it onto a capability. */
export interface HarnessTool {
  /** Wire name, our description, and the vendor's exact JSON schema. */
  declaration: ToolDeclaration;
  /** Capability id, for example `shell.run`. */
  capability: string;
  /** Wire argument name to capability field; "" means accepted and unused. */
  args: Record<string, string>;
  /** Capability fields with fixed values for this tool. */
  fixedArgs: Record<string, unknown>;
  /** Wire argument → factor applied to a numeric value before mapping (seconds → ms: 1000). */
  scale: Record<string, number>;
  /** Wire argument → number added after `scale` (0-based line numbers → 1-based: 1). */
  shift?: Record<string, number>;
  result: ResultFormat;
  /**
   * Error code → the whole text of that failure, in the vendor's words, with the code's
   * `{fields}` (codes per capability: lib/harness/error_placeholders.ts).
   */
  errors?: Record<string, string>;
  /** Sent only after a tool search loads it (see `lib/harness/deferred.ts`). */
  deferred?: boolean;
  /** Offered only in sessions that have this (see `lib/harness/session_tools.ts`). */
  when?: "mcp_servers" | "changes_allowed";
  /** Another capability for calls that set a given wire argument. */
  route?: ToolRoute;
  /** Sent only in code mode (`code_mode = true`); such tools are in `Harness.codeMode`. */
  codeMode?: boolean;
  /** Not sent: reached only from code-mode source (`exec`'s nested tools). */
  nested?: boolean;
}

/**
 * A call that sets wire argument `when` (true, or any non-empty value) runs `tool` instead:
 * the same declaration with its own capability, mapping and result format. Claude's `Bash`
 * with `run_in_background` goes to `shell.start` this way.
 */
export interface ToolRoute {
  when: string;
  /** When set, the route applies only if `when` holds a string this pattern matches. */
  matches?: RegExp;
  tool: HarnessTool;
}

/**
 * A reminder the harness adds to a tool result: when the todo list has gone stale, or when the
 * model loops (`loop`, one per `shape`; `{tool}` and `{repeats}` are filled in).
 */
export type Reminder =
  | { when: "todo_stale"; afterCalls: number; text: string }
  | { when: "loop"; shape: LoopShape; text: string }
  | { when: "goal_budget"; text: string };

/** What a harness tells a model about itself when the model id matches one of `match`. */
export interface ModelFacts {
  /** `*` globs over the model id, case-insensitive. */
  match: string[];
  /** The model's display name, e.g. "Opus 5.5". */
  name: string;
  /** When its training data ends, e.g. "June 2026". */
  knowledgeCutoff: string;
}

/** A harness: everything the one loop needs to present a vendor's surface to a model. */
export interface Harness {
  id: string;
  label: string;
  /** Folder the spec was loaded from. */
  dir: string;
  /** System prompt template with `{{variable}}` placeholders. */
  systemPrompt: string;
  /** Reliability guidance for `{{guidance}}`, from the spec's `guidance` file. */
  guidance?: string;
  /** Per model family, the `{{model_name}}` and `{{knowledge_cutoff}}` values (first match wins). */
  modelFacts?: ModelFacts[];
  tools: HarnessTool[];
  /** Wire APIs this harness can be used with. */
  wireApis: WireApi[];
  /** How much earlier model reasoning is sent back: every turn, only the latest, or none. */
  reasoningReplay: "all" | "latest" | "none";
  /** Reminders injected into the conversation (see `reminders` in the spec schema). */
  reminders: Reminder[];
  /** Reasoning text sent on a replayed tool-calling turn that had none. */
  reasoningPlaceholder?: string;
  /** Wire name template of a tool source's tools (`{source}`, `{tool}`); see the spec schema. */
  sourceToolName?: string;
  /** Template for a failed tool call's text; `{message}` and `{hint}` are filled in. */
  errorTemplate: string;
  /** Whole text for a call to a tool the harness lacks; `{name}` and `{available}` filled in. */
  unknownToolTemplate: string;
  /** Whole text for a call to a deferred tool not loaded yet (`unloaded_tool_template`). */
  unloadedToolTemplate?: string;
  /** Whole text of the result of a call the user interrupted (`interrupted_text`). */
  interruptedText: string;
  /** Whole texts for arguments a call cannot run with; our wording when absent. */
  invalidArguments?: InvalidArgumentsTexts;
  /** When the harness is chosen automatically (the spec's `[match]`). */
  match: HarnessMatch;
  /** Set for text-protocol harnesses; absent means native function calls. */
  protocol?: TextProtocol;
  /** What the harness sends on each wire besides the conversation (`[request.<wire>]`). */
  request: RequestSpecs;
  /** Where each piece of context goes (`system_prompt` first, then `[[context]]`). */
  context: ContextEntry[];
  /** Where project instructions go and how each file is framed; absent: plain, inline. */
  projectInstructions?: ProjectInstructions;
  /** Texts the session sends besides the system prompt (`[prompts]`, else `harnesses/_shared/`). */
  texts: HarnessTexts;
  /** The lean surface for small models (`[lean]`); absent when the spec has none. */
  lean?: LeanSurface;
  /**
   * Set when the session asked for the lean surface: why (`lean = true`, the window, the
   * parameter count). With `lean` the harness presents it; without, the full surface stays.
   */
  leanReason?: string;
  /** Codex's code mode for some models (`[code_mode]`, lib/harness/code_mode.ts). */
  codeMode?: CodeModeSurface;
  /** Set when the session runs the harness in code mode: why (the model's rule). */
  codeModeReason?: string;
  /** Why the session's start-up chose this harness (`chooseHarnessWhy`); absent: `/harness`. */
  choiceReason?: string;
}

/** What a harness presents in lean mode (`[lean]` in the spec): core tools, a short prompt. */
export interface LeanSurface {
  /** Wire names of the tools kept, as `[lean] tools` lists them. */
  tools: string[];
  /** The short system prompt template (`[lean] system_prompt`). */
  systemPrompt: string;
  /** The context layout in lean mode: the lean prompt first, then the kept entries. */
  context: ContextEntry[];
}

/** A harness's texts for compaction, review and the `{{sandbox}}` variable. */
export interface HarnessTexts {
  /** The user message that asks the model for a summary when the history is compacted. */
  compaction: string;
  /** The message that replaces the compacted history; `{summary}` is filled in. */
  compactionSummary: string;
  /** The system prompt of a review turn, a template with `{{variables}}`. */
  reviewer: string;
  /** The pieces of the `{{sandbox}}` paragraph. */
  sandbox: SandboxTexts;
  /** The file each text was read from, by its `[prompts]` key (shown by `debug harness`). */
  files: Record<PromptsKey, string>;
}

/** Keys of a spec's `[prompts]` table. */
export type PromptsKey = "compaction" | "compaction_summary" | "reviewer" | "sandbox";

/**
 * The `{{sandbox}}` paragraph: `template` with `{where}` (`confined` or `unconfined`) and
 * `{approval}` (the approval policy's text); each also has `{description}`, `{mode}`, `{policy}`.
 */
export interface SandboxTexts {
  template: string;
  /** Commands run under an enforced sandbox, or need none (danger-full-access). */
  confined: string;
  /** The sandbox cannot be enforced on this machine. */
  unconfined: string;
  /** Text per approval policy (`untrusted`, `on-request`, `on-failure`, `never`). */
  approval: Record<string, string>;
}

/** What the `{{sandbox}}` paragraph says about the session's sandbox and approval policy. */
export interface SandboxPromptFacts {
  /** `sandbox_mode`. */
  mode: string;
  /** `approval_policy`. */
  policy: string;
  /** The sandbox as the probe describes it. */
  description: string;
  /** Whether the OS sandbox is enforced. */
  enforced: boolean;
}

/**
 * A piece of context and its slot:
 * - `system`, `developer`: a system part (see `SystemPart`), `cache` a breakpoint on it;
 * - `user_item`: its own user message before the first prompt (Codex's environment context);
 * - `first_user`: a part at the front of the first user message (a `<system-reminder>`);
 * - `system_message`: a system-role message right after the first user message;
 * - `every_user`: a user message after every prompt (Kimi Code's reminder);
 * - `turn_prefix`: text put before every prompt, in the prompt's own block;
 * - `first_prompt`: a template the first prompt goes into, at `{{prompt}}` (SWE-agent's
 *   instance template).
 */
export interface ContextEntry {
  slot: ContextSlot;
  /** Template text with `{{variables}}`. */
  text: string;
  cache: boolean;
  /** Responses developer parts: join the developer message before it as a further part. */
  samePart: boolean;
  /** Left out while all these prompt variables are empty (a skills block without skills). */
  when?: Array<keyof PromptVars>;
}

/**
 * Where a harness's vendor puts project instructions (`[project_instructions]` in the spec):
 * - `slot`: `inline` (where the system prompt or a `[[context]]` entry has `{{agents_md}}`), a
 *   context slot (the spec's block, put first among that slot's entries), or `none`;
 * - how each file is framed inside `{{agents_md}}` and `{{claude_md}}`: `fileTemplate` for a
 *   project file, `globalTemplate` for the user's own file (`{path}`, `{relative_path}` from the
 *   working directory, `{text}`), and `globalSeparator` between the user's file and the project's.
 */
export interface ProjectInstructions {
  slot: "inline" | "none" | ContextSlot;
  fileTemplate: string;
  globalTemplate: string;
  globalSeparator: string;
  /** Vendor instruction files read into `{{agents_md}}` with AGENTS.md (`vendor_files`). */
  vendorFiles?: Array<"QWEN.md">;
}

export type ContextSlot =
  | "system"
  | "developer"
  | "user_item"
  | "first_user"
  | "system_message"
  | "every_user"
  | "turn_prefix"
  | "first_prompt";

/**
 * A harness's texts for bad arguments. `template` has `{name}` (the tool), `{issues}` (one line
 * per issue), `{problems}`, `{message}`, `{hint}`, `{arguments_json}` and `{if_several}`. Each
 * issue line is `missing`, `unexpected` or `invalid` by its kind, else `issue`, else `{text}`,
 * with `{param}`, `{problem}` and `{text}`. `notJson` words arguments that are not a JSON object
 * (`{name}`, `{problem}`, `{message}`); without it those get our wording.
 */
export interface InvalidArgumentsTexts {
  template: string;
  issue?: string;
  missing?: string;
  unexpected?: string;
  invalid?: string;
  notJson?: string;
}

/** Values available to system prompt templates. */
export interface PromptVars {
  cwd: string;
  date: string;
  platform: string;
  shell: string;
  model: string;
  gitStatus: string;
  agentsMd: string;
  /** The `{{sandbox}}` paragraph as given; ignored when `sandboxFacts` is set. */
  sandbox: string;
  /** The sandbox and approval policy, worded by the harness's sandbox texts into `{{sandbox}}`. */
  sandboxFacts?: SandboxPromptFacts;
  /** Names of the harness's deferred tools, one per line; derived from the harness when unset. */
  deferredTools?: string;
  /** Agent Skills, one `- name: description (file: path)` line each; "" when unset. */
  skills?: string;
  /** The same skills as an `<available_skills>` block (name, description, location); "" for none. */
  availableSkills?: string;
  /** Defined sub-agents as Claude Code's agent-type lines (`{{agent_types}}`); "" for none. */
  agentTypes?: string;
  /** The same as Gemini CLI's `<subagent>` entries (`{{subagent_entries}}`); "" for none. */
  subagentEntries?: string;
  /** Reliability guidance; the harness's own when unset, "" to leave it out (`harness_guidance`). */
  guidance?: string;
  /** CLAUDE.md files (user, then project from the root down), framed by `projectInstructions`. */
  claudeMd?: string;
  /** GEMINI.md files (`~/.gemini/GEMINI.md`, then the project's from the root down), framed alike. */
  geminiMd?: string;
  /** The working directory's files and folders, breadth-first, 200 entries at most, as a tree. */
  projectTree?: string;
  /** "Yes" in a git repository, else "No". */
  isGit?: string;
  /** The checked-out branch; "" outside a repository. */
  gitBranch?: string;
  /** The main branch (`main`, `master`, or origin's HEAD). */
  gitMainBranch?: string;
  /** `git config user.name`. */
  gitUser?: string;
  /** `git status --short`, or "(clean)". */
  gitStatusShort?: string;
  /** The last five commits, one `hash subject` line each. */
  gitRecentCommits?: string;
  /** The kernel, as `uname -sr` prints it. */
  osVersion?: string;
  /** The date as "Tuesday, December 1, 2026". */
  dateLong?: string;
  /** The current time, ISO 8601 UTC. */
  datetime?: string;
  /** The IANA time zone. */
  timezone?: string;
  /** The working directory's entries, folders first, as a small tree (20 entries at most). */
  folderTree?: string;
  /** The date as "Tue Dec 01 2026" (JavaScript's `toDateString()`). */
  dateShort?: string;
  /** The git repository's top folder, or the working directory outside a repository. */
  workspaceRoot?: string;
  /** A fresh terminal's screen (its first prompt line), as `terminal.keys` would show it. */
  terminalScreen?: string;
  /** The model's display name from the harness's `[[model_facts]]`; the model id otherwise. */
  modelName?: string;
  /** The model's training cutoff from the harness's `[[model_facts]]`; empty when unknown. */
  knowledgeCutoff?: string;
}

/** What a text-protocol harness made of one model reply. */
export type ParsedReply =
  | { kind: "calls"; calls: Array<{ name: string; args: unknown }> }
  | { kind: "finish"; finalText: string }
  | { kind: "format_error"; message: string };

/** One executed call and its rendered result, as a text protocol reports it back. */
export interface ProtocolResult {
  name: string;
  args: unknown;
  text: string;
  isError: boolean;
  /** The capability's structured output, when the call succeeded. */
  output?: unknown;
}

/**
 * A text protocol: the model writes commands in its reply text (a fenced block, an XML tag, a
 * JSON object) instead of native function calls. Tools are then not sent on the wire; the loop
 * parses each reply, runs the calls through the same capabilities, and answers with a user
 * message. `state` lives for the session (for example a pending submit confirmation).
 */
export interface TextProtocol {
  parse(reply: string, state: Map<string, unknown>): ParsedReply;
  /** The user message answering the calls, or the end of the turn (a submit seen in output). */
  observation(
    results: ProtocolResult[],
    state: Map<string, unknown>,
  ): string | { kind: "finish"; finalText: string };
}

/** A spec's `[match]` block: `*` globs, matched ignoring case; any one pattern matching is enough. */
export interface HarnessMatch {
  models: string[];
  /** Matched against the provider's id and its name. */
  providers: string[];
  baseUrls: string[];
  wireApis: WireApi[];
  /** Among matching harnesses the highest wins; on a tie a user harness beats a built-in one. */
  priority: number;
}

/** A loaded `[code_mode]`. */
export interface CodeModeSurface {
  models: RegExp[];
  /** The globs as written, for `/status`. */
  patterns: string[];
  wireApis: WireApi[];
  /** The tools sent in code mode, in harness order. */
  tools: HarnessTool[];
  /** Context entries added after the harness's own. */
  context: ContextEntry[];
  /** Responses settings over the harness's, with the tools item and its namespaces. */
  request: WireRequestSpec;
  /** Per nested tool: key of the object the source gets → result placeholder. */
  nestedResults: Record<string, Record<string, string>>;
}
