import * as z from "zod";
import { turnCancelled, unlessCancelled } from "../cancel.ts";
import { ToolError } from "../errors.ts";
import { defineCapability } from "./capability.ts";
import type { ToolContext, UserAnswers, UserQuestion } from "./types.ts";

/** What the result says when no one can answer. */
export const NOT_AVAILABLE_MESSAGE =
  "No one is available to answer questions now; proceed with your best judgement and state your assumptions";
/** What the result says when the user dismissed the questions without answering. */
export const DECLINED_MESSAGE =
  "The user declined to answer; proceed with your best judgement and state your assumptions";

const optionSchema = z.object({
  label: z.string().min(1).describe("Short answer the user can pick"),
  description: z.string().optional().describe("What picking it means"),
  preview: z.string().optional().describe("Optional preview shown beside the option"),
});

/** An option as a bare label: Codex's `request_user_input_async` lists its options as strings. */
const labelOnlySchema = z.string().min(1).transform((label) => ({
  label,
  description: undefined,
  preview: undefined,
}));

const questionSchema = z.object({
  question: z.string().min(1).optional().describe("The full question"),
  title: z.string().min(1).optional().describe("Same as question (Codex's async form)"),
  id: z.string().min(1).optional().describe("Stable id for the answer (Codex); default q1, q2, …"),
  header: z.string().optional().describe("Very short label for the question"),
  options: z.array(z.union([optionSchema, labelOnlySchema])).optional().describe(
    "Choices; the user may also type an answer",
  ),
  multiSelect: z.boolean().optional().describe("Allow picking several options (Claude spelling)"),
  multi_select: z.boolean().optional().describe("Same as multiSelect (Kimi spelling)"),
}).refine((q) => q.question !== undefined || q.title !== undefined, {
  message: "every question needs its text in `question` (or `title`)",
});

/**
 * Input of `user.ask`. One schema takes Claude/ZCode/Qwen `AskUserQuestion` and
 * `ask_user_question` (`multiSelect`), Kimi `AskUserQuestion` (`multi_select`) and Codex or
 * DeepSeek `request_user_input` (`id` per question), and Codex `request_user_input_async` (`title`
 * and options as bare labels): map `questions` → `questions` and the
 * other top-level wire arguments (`answers`, `annotations`, `metadata`, `background`) to "".
 */
const userAskInput = z.object({
  questions: z.array(questionSchema).min(1).describe("Questions to put to the user, in order"),
});

export type { AskUser, UserQuestion } from "./types.ts";

/** One answered question in the result of `user.ask`. */
export interface AnsweredQuestion {
  id: string;
  question: string;
  header: string;
  answers: string[];
}

/** Result of `user.ask`. Not being able to ask is a result, not an error. */
export type UserAskOutput =
  | { answered: true; answers: AnsweredQuestion[] }
  | { answered: false; message: string; answers: [] };

/**
 * Asks the user questions through `ctx.askUser`. Without that seam (no one can answer), or when
 * the user dismisses the questions, it tells the model to go on with its own judgement.
 */
export const userAsk = defineCapability({
  id: "user.ask",
  input: userAskInput,
  mutates: false,
  async run(input, ctx): Promise<UserAskOutput> {
    const questions = normalizeQuestions(input.questions);
    if (!ctx.askUser) return { answered: false, message: NOT_AVAILABLE_MESSAGE, answers: [] };
    const replies = await askTheUser(ctx, questions);
    if (replies === null) return { answered: false, message: DECLINED_MESSAGE, answers: [] };
    const byId = new Map(replies.map((r) => [r.id, r.answers]));
    return {
      answered: true,
      answers: questions.map((q) => ({
        id: q.id,
        question: q.question,
        header: q.header,
        answers: byId.get(q.id) ?? [],
      })),
    };
  },
});

/**
 * Puts `questions` to the user through `ctx.askUser` (which must be set) for call `ctx.callId`,
 * under the call's abort signal: when the turn is cancelled the wait ends at once with an
 * `AbortError`, which the loop treats as the turn being aborted, whatever the front end does.
 */
export function askTheUser(ctx: ToolContext, questions: UserQuestion[]): Promise<UserAnswers> {
  const cancelled = () =>
    turnCancelled(
      "The turn was cancelled while the user was being asked; the questions were withdrawn",
    );
  return unlessCancelled(
    ctx.askUser!(questions, { callId: ctx.callId }, ctx.signal),
    ctx.signal,
    cancelled,
  );
}

/** Fills defaults and merges spellings; ToolError for duplicate question ids. */
export function normalizeQuestions(
  questions: z.infer<typeof userAskInput>["questions"],
): UserQuestion[] {
  const out = questions.map((q, i): UserQuestion => ({
    id: q.id ?? `q${i + 1}`,
    question: (q.question ?? q.title)!,
    header: q.header ?? "",
    options: (q.options ?? []).map((o) => ({
      label: o.label,
      description: o.description ?? "",
      ...(o.preview === undefined ? {} : { preview: o.preview }),
    })),
    multiSelect: q.multiSelect ?? q.multi_select ?? false,
  }));
  const seen = new Set<string>();
  for (const q of out) {
    if (seen.has(q.id)) {
      throw new ToolError(
        `Cannot ask: question id "${q.id}" is used twice`,
        "Give every question a different id",
      );
    }
    seen.add(q.id);
  }
  return out;
}
