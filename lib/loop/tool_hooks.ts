/**
 * The tool-hook chain: an ordered list of links around every tool call. Before a call runs, each
 * link may allow it, deny it with a reason, or rewrite its input; after it ran, each may keep the
 * result, replace it, add a note to it, or end the turn; around each model reply, a link may
 * watch it stream (and cut it off) and, once it is done, add a note or end the turn. Approval,
 * the loop guard and the harness's reminders are links (`lib/hooks/`), and so will user hooks
 * be; the loop runs the chain and names none of them.
 *
 * The grant rule: a call leaves the sandbox only when a link's `allow` carries a `SandboxGrant`,
 * which only the approval link makes. Model arguments can ask for it (`escalated`), never carry
 * it: the input a capability runs with has those fields removed, and set again only for a
 * grant. JSON (model arguments, a user hook's answer) cannot be a `SandboxGrant`, links see a
 * copy of the input they cannot change in place, and a rewrite after a link allowed the call
 * refuses the call, so no link can turn an approval of one input into a run of another.
 */
import type { Harness } from "../harness/types.ts";
import type { TurnOutcome } from "./events.ts";

/** A tool call as the chain sees it. */
export interface HookCall {
  id: string;
  /** The tool's wire name. */
  name: string;
  /** The model's arguments as it sent them. */
  args: unknown;
  rawArgs?: string;
  /** The capability the call resolved to; absent when it named no tool or had bad arguments. */
  capability?: string;
  /** Whether that capability changes anything. */
  mutates?: boolean;
  /** The capability input it runs with, after earlier links' rewrites. */
  input?: unknown;
  /** Why an earlier link wants the user asked about the call whatever the policy says. */
  askReason?: string;
}

/** A call resolved to a capability, as `before` links see it. */
export interface ResolvedHookCall extends HookCall {
  capability: string;
  mutates: boolean;
  input: unknown;
}

/** A finished call's result, as `after` links see it (earlier replacements included). */
export interface HookResult {
  text: string;
  isError: boolean;
  /** The capability's structured output, when it ran and nothing replaced its result. */
  output?: unknown;
}

/**
 * Permission for one call to run outside the sandbox. The approval link is the only one that
 * makes one; a value parsed from JSON never is one.
 */
export class SandboxGrant {
  readonly #granted = true;

  /** True for a grant made by this class, false for anything that only looks like one. */
  static isGrant(value: unknown): value is SandboxGrant {
    return typeof value === "object" && value !== null && #granted in value;
  }
}

/** What a link says before a call; undefined has no objection, like `allow` without a grant. */
export type BeforeVerdict =
  | { action: "allow"; grant?: SandboxGrant }
  | { action: "deny"; reason: string }
  | { action: "rewrite"; input: unknown }
  /** Have the user asked about the call (a hook's `permissionDecision: "ask"`), for `reason`. */
  | { action: "ask"; reason: string };

/** What a link says after a call; undefined keeps the result. */
export type AfterVerdict =
  | { action: "keep" }
  | { action: "replace"; text: string; isError: boolean }
  /** A note after the result (in a text protocol, after the whole observation). */
  | { action: "append"; text: string }
  /** Keeps the result and ends the turn; later calls of the reply are not run, for `reason`. */
  | { action: "stop"; outcome: TurnOutcome; reason: string };

/** Where a piece of a streamed reply goes: its text or its reasoning. */
export type ReplyChannel = "text" | "reasoning";

/** A link's reason to stop a reply while it streams (it repeats itself, say). */
export interface ReplyCut {
  channel: ReplyChannel;
  /** How many characters of that channel's text the reply keeps. */
  keep: number;
  /** What the model reads next: why its reply was cut off. */
  message: string;
  /** The span the reply kept repeating, and how many times in a row. */
  span: string;
  repeats: number;
}

/** Watches one reply as it streams. */
export interface ReplyWatch {
  /** Takes the next piece of text or reasoning; a cut ends the reply there. */
  push(channel: ReplyChannel, text: string): ReplyCut | undefined;
  /** The provider starts the reply over (a retried stream): forget what came so far. */
  reset(): void;
}

/**
 * A model reply as `afterReply` links see it, once its calls ran: `formatError` when a text
 * protocol could not use it (the text the model reads), `cut` when a link cut it off.
 */
export interface HookReply {
  formatError?: string;
  cut?: ReplyCut;
}

/** What a link says after a reply: a note for the model, or the end of the turn. */
export type ReplyVerdict = Extract<AfterVerdict, { action: "keep" | "append" | "stop" }>;

/** One link of the chain. */
export interface ToolHook {
  /** Names the link in the reasons the chain gives. */
  name: string;
  before?(call: ResolvedHookCall, signal: AbortSignal): Promise<BeforeVerdict | undefined>;
  after?(
    call: HookCall,
    result: HookResult,
    signal: AbortSignal,
  ): Promise<AfterVerdict | undefined>;
  /** Watches each reply as it streams, to cut it off; called once per reply. */
  watchReply?(): ReplyWatch | undefined;
  /** After each reply that did not end the turn, its calls (if any) done. */
  afterReply?(reply: HookReply, signal: AbortSignal): Promise<ReplyVerdict | undefined>;
}

/** What a turn's links are made for: the harness it presents and the session's tool state. */
export interface HookTurn {
  harness: Harness;
  state: Map<string, unknown>;
  /** The session's tokens so far, for a goal's budget (`TurnContext.tokensUsed`). */
  tokensUsed?: () => number;
}

/** Makes the links of one turn (a sub-agent's turn gets its own), in the order they run. */
export type ToolHooks = (turn: HookTurn) => readonly ToolHook[];

/** Whether and how a call runs, once every `before` link has spoken. */
export type BeforeDecision =
  | {
    allow: true;
    /** The input to run (a rewrite's, or the call's own). */
    input: unknown;
    /** The link that rewrote it, if one did. */
    rewrittenBy?: string;
    /** True only when a link allowed the call with a `SandboxGrant`. */
    unsandboxed: boolean;
  }
  | { allow: false; reason: string };

/** The result after every `after` link, the notes they added, and a stop if one asked for it. */
export interface AfterDecision {
  result: HookResult;
  notes: string[];
  stop?: { outcome: TurnOutcome; reason: string };
}

/** Runs an ordered list of links around calls. */
export class ToolHookChain {
  readonly #hooks: readonly ToolHook[];

  constructor(hooks: readonly ToolHook[] = []) {
    this.#hooks = hooks;
  }

  /** Asks every `before` link in order; the first denial ends it. */
  async before(call: ResolvedHookCall, signal: AbortSignal): Promise<BeforeDecision> {
    let input = call.input;
    let rewrittenBy: string | undefined;
    let allowedBy: string | undefined;
    let granted = false;
    let askReason: string | undefined;
    for (const hook of this.#hooks) {
      if (!hook.before) continue;
      const seen = { ...call, input: structuredClone(input), ...(askReason ? { askReason } : {}) };
      const verdict = await hook.before(seen, signal);
      switch (verdict?.action) {
        case undefined:
          break;
        case "allow":
          allowedBy ??= hook.name;
          if (SandboxGrant.isGrant(verdict.grant)) granted = true;
          break;
        case "deny":
          return { allow: false, reason: verdict.reason };
        case "rewrite":
          if (allowedBy !== undefined) {
            return {
              allow: false,
              reason: `The ${hook.name} hook changed the input of ${call.name} after the ` +
                `${allowedBy} hook allowed it, so it was not run`,
            };
          }
          input = verdict.input;
          rewrittenBy = hook.name;
          break;
        case "ask":
          askReason = askReason ? `${askReason}\n${verdict.reason}` : verdict.reason;
          break;
        default:
          throw new TypeError(
            `Hook "${hook.name}" gave an unknown verdict: ${verdictText(verdict)}`,
          );
      }
    }
    return { allow: true, input, unsandboxed: granted, ...(rewrittenBy ? { rewrittenBy } : {}) };
  }

  /** The links' watches of one reply as one, the first cut winning; none when no link watches. */
  watchReply(): ReplyWatch | undefined {
    const watches = this.#hooks.flatMap((hook) => hook.watchReply?.() ?? []);
    if (watches.length === 0) return undefined;
    return {
      push(channel, text) {
        let cut: ReplyCut | undefined;
        for (const watch of watches) cut ??= watch.push(channel, text);
        return cut;
      },
      reset() {
        for (const watch of watches) watch.reset();
      },
    };
  }

  /** Gives a finished reply to every `afterReply` link in order: their notes and a stop. */
  async afterReply(reply: HookReply, signal: AbortSignal): Promise<Omit<AfterDecision, "result">> {
    const out: AfterDecision = { result: { text: "", isError: false }, notes: [] };
    for (const hook of this.#hooks) {
      if (hook.afterReply) foldVerdict(hook.name, await hook.afterReply(reply, signal), out);
    }
    return { notes: out.notes, ...(out.stop ? { stop: out.stop } : {}) };
  }

  /** Gives the result to every `after` link in order. */
  async after(call: HookCall, result: HookResult, signal: AbortSignal): Promise<AfterDecision> {
    const out: AfterDecision = { result, notes: [] };
    for (const hook of this.#hooks) {
      if (hook.after) foldVerdict(hook.name, await hook.after(call, out.result, signal), out);
    }
    return out;
  }
}

/** Adds one link's verdict to what the links so far decided. */
function foldVerdict(name: string, verdict: unknown, out: AfterDecision): void {
  const v = verdict as
    | undefined
    | { action: "keep" }
    | { action: "replace"; text: string; isError: boolean }
    | { action: "append"; text: string }
    | { action: "stop"; outcome: NonNullable<AfterDecision["stop"]>["outcome"]; reason: string };
  switch (v?.action) {
    case undefined:
    case "keep":
      return;
    case "replace":
      out.result = { text: v.text, isError: v.isError };
      return;
    case "append":
      if (v.text) out.notes.push(v.text);
      return;
    case "stop":
      out.stop ??= { outcome: v.outcome, reason: v.reason };
      return;
    default:
      throw new TypeError(`Hook "${name}" gave an unknown verdict: ${verdictText(v)}`);
  }
}

function verdictText(verdict: unknown): string {
  return JSON.stringify(verdict) ?? String(verdict);
}
