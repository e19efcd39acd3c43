/**
 * The slash commands an editor offers (`available_commands_update`) and what each does in ACP
 * terms: `/review` runs a review in a fresh read-only session and answers with its findings,
 * `/compact` summarizes the conversation, `/status` answers with the session's settings and
 * usage. Their answers are agent messages; none of them reaches the model as a prompt, but
 * `/init`, whose prompt asks the model to study the repository and write a first AGENTS.md
 * (a permission request first when one exists; lib/workspace/init_agents_md.ts).
 */
import type { AvailableCommand, SessionUpdate, StopReason } from "@agentclientprotocol/sdk";
import { UserError } from "../../errors.ts";
import {
  type ReviewBase,
  type ReviewTarget,
  runReviewTurn,
  withReviewSession,
} from "../../review/review.ts";
import { runInit } from "../../session/init_agents_md.ts";
import { reconfigured } from "../../session/open.ts";
import type { PromptOutcome, Session } from "../../session/types.ts";
import { formatCost } from "../term/status_line.ts";
import { chunk, SessionUpdates } from "./updates.ts";

/** The commands offered, as `available_commands_update` lists them. */
export const AVAILABLE_COMMANDS: AvailableCommand[] = [
  {
    name: "review",
    description: "Review the uncommitted changes (or what you describe) in a fresh read-only " +
      "session",
    input: { hint: "what to review (default: the uncommitted changes)" },
  },
  { name: "compact", description: "Summarize the conversation to free context" },
  {
    name: "init",
    description: "Study the repository and write a first AGENTS.md (asks before replacing one)",
  },
  { name: "status", description: "Model, harness, mode, context and tokens of this session" },
];

/** A prompt that is one of the commands: its name and the text after it. */
export interface SlashCommand {
  name: string;
  arg: string;
}

/** The command `text` starts with; undefined for a prompt that is not one of ours. */
export function slashCommand(text: string): SlashCommand | undefined {
  const match = text.trim().match(/^\/([a-z-]+)(?:\s+([\s\S]*))?$/);
  if (!match || !AVAILABLE_COMMANDS.some((c) => c.name === match[1])) return undefined;
  return { name: match[1], arg: (match[2] ?? "").trim() };
}

/** What a command works with. */
export interface CommandContext {
  session: Session;
  /** The mode's id, for `/status`. */
  mode: string;
  send(update: SessionUpdate): void;
  signal: AbortSignal;
  /** The settings a review's own session starts from. */
  reviewBase: ReviewBase;
  showReasoning: boolean;
  /** Asks the user a yes/no question about a file (a permission request); true for yes. */
  confirm(question: { title: string; text: string }): Promise<boolean>;
}

/** Runs `command`; a failure the user can fix is answered as a message. */
export async function runCommand(command: SlashCommand, ctx: CommandContext): Promise<StopReason> {
  try {
    switch (command.name) {
      case "review":
        return await review(command.arg, ctx);
      case "compact":
        return await compact(ctx);
      case "init":
        return await init(ctx);
      default:
        say(ctx, statusText(ctx.session, ctx.mode));
        return "end_turn";
    }
  } catch (error) {
    if (ctx.signal.aborted) return "cancelled";
    if (!(error instanceof UserError)) throw error;
    say(ctx, `error: ${error.message}${error.hint ? `\nhint: ${error.hint}` : ""}`);
    return "end_turn";
  }
}

function say(ctx: CommandContext, text: string): void {
  ctx.send(chunk("agent_message_chunk", text));
}

async function compact(ctx: CommandContext): Promise<StopReason> {
  const before = ctx.session.status().contextUsed;
  try {
    await ctx.session.compact(ctx.signal);
  } catch (error) {
    // The model's failure to summarize is the answer, as it is in the REPL.
    if (ctx.signal.aborted || error instanceof UserError) throw error;
    say(ctx, `error: ${(error as Error).message}`);
    return "end_turn";
  }
  const after = ctx.session.status().contextUsed;
  say(ctx, `Compacted the conversation: ${before} → ${after} tokens in context.`);
  return "end_turn";
}

async function review(arg: string, ctx: CommandContext): Promise<StopReason> {
  const target: ReviewTarget = arg
    ? { kind: "custom", instructions: arg }
    : { kind: "uncommitted" };
  const updates = new SessionUpdates({
    showReasoning: ctx.showReasoning,
    idPrefix: `review-${crypto.randomUUID().slice(0, 8)}-`,
    // The reviewer answers in JSON; its findings are rendered when it is done.
    hideText: true,
  });
  const base: ReviewBase = {
    ...ctx.reviewBase,
    opening: reconfigured(ctx.reviewBase.opening, { ephemeral: true }),
    io: { onEvent: (event) => updates.map(event).forEach((u) => ctx.send(u)) },
  };
  const result = await withReviewSession(base, target, (session, request) => {
    say(ctx, `Reviewing ${request.hint}…\n\n`);
    return runReviewTurn(session, request, ctx.signal);
  });
  const { outcome } = result;
  if (outcome.status === "aborted") return "cancelled";
  if (result.text !== undefined) {
    say(ctx, result.text);
    return "end_turn";
  }
  if (outcome.status === "step_limit") return "max_turn_requests";
  const why = outcome.status === "failed" ? outcome.error.message : outcome.status;
  say(ctx, `error: The review did not finish: ${why}`);
  return "end_turn";
}

async function init(ctx: CommandContext): Promise<StopReason> {
  const ask = (target: string, text: string) => ctx.confirm({ title: `Replace ${target}`, text });
  const run = await runInit(ctx.session, {
    runTurn: (prompt) => ctx.session.prompt(prompt, ctx.signal),
    confirmReplace: (target, when) =>
      ask(
        target,
        when === "exists"
          ? `${target} exists. Replace it with a new one?`
          : `${target} changed while /init ran. Replace it with the draft?`,
      ),
  });
  if (run.status === "plan_mode") {
    say(ctx, "/init writes a file, and plan mode only reads: leave plan mode first.");
    return "end_turn";
  }
  if (run.status === "kept") {
    say(ctx, `Kept ${run.target} as it is; nothing was sent to the model.`);
    return "end_turn";
  }
  say(ctx, `\n\n${run.result.message}.`);
  return run.outcome ? stopReasonOf(run.outcome) : "end_turn";
}

/** The stop reason of a turn a command ran; a failure is an error, as for a prompt. */
function stopReasonOf(outcome: PromptOutcome): StopReason {
  switch (outcome.status) {
    case "aborted":
      return "cancelled";
    case "step_limit":
      return "max_turn_requests";
    case "failed":
      throw new UserError(outcome.error.message, { hint: outcome.error.hint });
    case "completed":
      return outcome.refused ? "refusal" : "end_turn";
    default:
      return "end_turn";
  }
}

/** `/status` as Markdown. */
function statusText(session: Session, mode: string): string {
  const s = session.status();
  const percent = s.contextWindow ? Math.round((s.contextUsed / s.contextWindow) * 100) : 0;
  const rows: Array<[string, string]> = [
    ["provider", `${s.provider} (${s.wireApi})`],
    ["model", s.model + (s.reasoningEffort ? ` (reasoning effort ${s.reasoningEffort})` : "")],
    ["harness", s.harness],
    ["mode", mode],
    ["sandbox", s.sandbox.startsWith(s.sandboxMode) ? s.sandbox : `${s.sandboxMode}: ${s.sandbox}`],
    ["approval", s.approval],
    ["network", s.network ? "allowed" : "blocked"],
    ["directory", s.cwd],
    ["session", s.sessionId ?? "not saved"],
    ["context", `${s.contextUsed} / ${s.contextWindow} tokens (${percent}%)`],
    ["tokens", `${s.tokens.input} in (${s.tokens.cached} cached), ${s.tokens.output} out`],
    ["cost", s.cost === undefined ? "unknown" : formatCost(s.cost)],
  ];
  return rows.map(([k, v]) => `- **${k}**: ${v}`).join("\n");
}
