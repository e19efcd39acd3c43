/**
 * One exec task: the prompt (with its images), the saved session `exec resume` continues, the
 * turn with its output schema, and `-o FILE`.
 */
import { basename, resolve } from "node:path";
import { UserError } from "../../errors.ts";
import type { TurnOutcome } from "../../loop/events.ts";
import type { Block } from "../../model/message.ts";
import { findSessions, resolveSession } from "../../store/mod.ts";
import { UUID_PATTERN } from "../../store/uuid.ts";
import type { ResumeTarget } from "../../cli/cli.ts";
import {
  answerJson,
  type AnswerSchema,
  correctionPrompt,
} from "../../session/structured_output.ts";
import type { Session } from "../../session/open.ts";

/** How the turn ended; `schemaViolation` is set when the failure is the answer's shape. */
export interface ExecTurnResult {
  outcome: TurnOutcome;
  schemaViolation?: string;
}

/**
 * Runs the prompt. With a schema, the answer must be JSON that matches it: a mismatch gets one
 * corrective turn, then the run fails naming the violation.
 */
export async function runExecTurn(
  session: Session,
  input: Block[],
  signal: AbortSignal,
  schema?: AnswerSchema,
): Promise<ExecTurnResult> {
  const opts = { outputSchema: schema?.wire };
  let outcome = await session.prompt(input, signal, opts);
  if (!schema) return { outcome };
  for (let attempt = 0; outcome.status === "completed"; attempt++) {
    const text = answerJson(outcome.finalText);
    const problem = schema.problem(text);
    if (!problem) return { outcome: { status: "completed", finalText: text } };
    if (attempt === 1) {
      const message = `The final answer does not match the output schema: ${problem}`;
      const hint = "Simplify the schema, or try a model that follows structured output";
      return {
        outcome: { status: "failed", error: { message, hint, retryable: false } },
        schemaViolation: problem,
      };
    }
    outcome = await session.prompt(correctionPrompt(problem), signal, opts);
  }
  return { outcome };
}

/** The session `exec resume` continues: its file, and its id for `thread.started`. */
export interface ResumedSession {
  file: string;
  id?: string;
}

/** Finds the session a resume target names: `--last` (of this directory unless `--all`) or an id. */
export async function findResumed(
  target: ResumeTarget,
  cwd: string,
  home: string,
): Promise<ResumedSession> {
  if (!target.last) {
    const file = await resolveSession(home, target.id!);
    return { file, id: idInFileName(file) };
  }
  const [newest] = await findSessions(home, { cwd: target.all ? undefined : cwd, limit: 1 });
  if (!newest) {
    throw new UserError(`No saved session${target.all ? "" : ` for "${cwd}"`}`, {
      hint: target.all
        ? 'Start one with "interpreter exec PROMPT"'
        : 'Add --all to look in every directory, or start one with "interpreter exec PROMPT"',
    });
  }
  return { file: newest.file, id: newest.id };
}

const ID_IN_NAME = new RegExp(`(${UUID_PATTERN.source})\\.jsonl$`);

function idInFileName(file: string): string | undefined {
  return ID_IN_NAME.exec(basename(file))?.[1];
}

/**
 * `-o FILE`: the final answer, written only when the turn completed. An empty answer writes an
 * empty file and returns a warning.
 */
export async function writeLastMessage(
  path: string,
  outcome: TurnOutcome,
): Promise<string | undefined> {
  if (outcome.status !== "completed") return undefined;
  const file = resolve(path);
  try {
    await Deno.writeTextFile(file, outcome.finalText);
  } catch (error) {
    throw new UserError(`Cannot write the last message to "${file}": ${(error as Error).message}`, {
      hint: "Pass -o a file in a directory you can write to",
    });
  }
  return outcome.finalText === ""
    ? `No final message to write to "${file}"; it is empty`
    : undefined;
}
