/** The REPL's side of `user.ask`: each question with numbered options, answered on one line. */
import { terminalSafe } from "../../approval/visible.ts";
import type { AskUser, UserQuestion } from "../../tools/ask_user.ts";
import type { Style } from "../term/style.ts";
import { readUnlessWithdrawn } from "./approvals.ts";

/**
 * Asks with `answer` (one line per question): a number picks an option (several, comma
 * separated, where the question allows it), other text is the answer itself, and an empty line
 * dismisses all the questions. When the turn is cancelled first, `answer` is told to stop
 * reading (its signal), a "withdrawn" line says so, and the promise rejects with an `AbortError`.
 */
export function replAskUser(
  print: (lines: string[]) => void,
  answer: (prompt: string, signal: AbortSignal) => Promise<string | null>,
  style: Style,
): AskUser {
  const withdrawn = () => {
    print([style.dim("withdrawn: the turn was cancelled")]);
    return new DOMException("The questions were withdrawn", "AbortError");
  };
  return async (questions, _meta, signal) => {
    const answers = [];
    for (const question of questions) {
      if (signal.aborted) throw withdrawn();
      print(questionLines(question, style));
      const typed = await readUnlessWithdrawn(answer, "answer › ", signal);
      if (signal.aborted) throw withdrawn();
      const line = typed?.trim() ?? "";
      if (line === "") return null;
      answers.push({ id: question.id, answers: picked(question, line) });
    }
    return answers;
  };
}

/** The model's question and options, their control characters made visible. */
function questionLines(untrusted: UserQuestion, style: Style): string[] {
  const question = terminalSafe(untrusted);
  const head = question.header ? `${style.bold(question.header)}: ` : "";
  return [
    `${head}${question.question}`,
    ...question.options.map((o, i) =>
      `  ${i + 1}) ${o.label}${o.description ? style.dim(` — ${o.description}`) : ""}`
    ),
    style.dim(
      question.options.length
        ? `a number${
          question.multiSelect ? " (or several: 1,3)" : ""
        }, or type an answer; Enter skips`
        : "type an answer; Enter skips",
    ),
  ];
}

/** The labels the numbers name, or the typed text itself. */
function picked(question: UserQuestion, line: string): string[] {
  const parts = line.split(",").map((p) => p.trim());
  const numbers = parts.map(Number);
  const valid = numbers.every((n) => Number.isInteger(n) && n >= 1 && n <= question.options.length);
  if (!valid || (!question.multiSelect && numbers.length > 1)) return [line];
  return numbers.map((n) => question.options[n - 1].label);
}
