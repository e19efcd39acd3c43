import type { ToolDeclaration } from "../model/message.ts";
import type { WireApi } from "../providers/types.ts";

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
  /** Sent only after a tool search loads it (see `lib/harness/deferred.ts`). */
  deferred?: boolean;
  /** Another capability for calls that set a given wire argument. */
  route?: ToolRoute;
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

/** A reminder the harness injects: at the start, or when the todo list has gone stale. */
export type Reminder =
  | { when: "session_start"; text: string }
  | { when: "todo_stale"; afterCalls: number; text: string };

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
  tools: HarnessTool[];
  /** Wire APIs this harness can be used with. */
  wireApis: WireApi[];
  /** How much earlier model reasoning is sent back: every turn, only the latest, or none. */
  reasoningReplay: "all" | "latest" | "none";
  /** Reminders injected into the conversation (see `reminders` in the spec schema). */
  reminders: Reminder[];
  /** Reasoning text sent on a replayed tool-calling turn that had none. */
  reasoningPlaceholder?: string;
  /** Template for a failed tool call's text; `{message}` and `{hint}` are filled in. */
  errorTemplate: string;
  /** Text for a call to a tool the harness does not have; `{name}` is filled in. */
  unknownToolTemplate: string;
  /** When the harness is chosen automatically (the spec's `[match]`). */
  match: HarnessMatch;
  /** Set for text-protocol harnesses; absent means native function calls. */
  protocol?: TextProtocol;
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
  sandbox: string;
  /** Names of the harness's deferred tools, one per line; derived from the harness when unset. */
  deferredTools?: string;
  /** Agent Skills, one `- name: description (file: path)` line each; "" when unset. */
  skills?: string;
  /** Reliability guidance; the harness's own when unset, "" to leave it out (`harness_guidance`). */
  guidance?: string;
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
