/**
 * The model's questions (`user.ask`) as a form for clients that render one: an MCP or ACP
 * `elicitation/create` in form mode, one field per question (a pick from the options, several for
 * a multi-select question, or free text), and the answers read back from the client's content.
 */
import type { UserAnswers, UserQuestion } from "../tools/types.ts";

/** The message and the restricted JSON Schema an elicitation form asks with. */
export interface QuestionForm {
  message: string;
  requestedSchema: {
    type: "object";
    properties: Record<string, Record<string, unknown>>;
    required: string[];
  };
}

/** One field per question, keyed by the question's id; a free-text question's field is a string. */
export function questionForm(questions: UserQuestion[]): QuestionForm {
  const properties: QuestionForm["requestedSchema"]["properties"] = {};
  for (const q of questions) properties[q.id] = field(q);
  const message = questions.length === 1
    ? questions[0].question
    : `The agent asks ${questions.length} questions:\n` +
      questions.map((q, i) => `${i + 1}. ${q.question}`).join("\n");
  return { message, requestedSchema: { type: "object", properties, required: [] } };
}

function field(q: UserQuestion): Record<string, unknown> {
  const title = q.header || q.question;
  const described = q.options.filter((o) => o.description);
  const description = [
    q.question,
    ...described.map((o) => `${o.label}: ${o.description}`),
  ].join("\n");
  const labels = q.options.map((o) => o.label);
  if (labels.length === 0) return { type: "string", title, description };
  if (q.multiSelect) {
    return { type: "array", title, description, items: { type: "string", enum: labels } };
  }
  return { type: "string", title, description, enum: labels };
}

/**
 * The answers in a client's reply to the form: `accept` with `content` answers (an empty field
 * answers nothing), `decline`, `cancel` or anything else dismisses the questions (null).
 */
export function formAnswers(questions: UserQuestion[], reply: unknown): UserAnswers {
  const r = reply as { action?: unknown; content?: unknown } | null | undefined;
  if (r?.action !== "accept") return null;
  const content = (typeof r.content === "object" && r.content !== null ? r.content : {}) as Record<
    string,
    unknown
  >;
  return questions.map((q) => ({ id: q.id, answers: valuesOf(content[q.id]) }));
}

function valuesOf(value: unknown): string[] {
  const all = Array.isArray(value) ? value : [value];
  return all.flatMap((v) =>
    typeof v === "string"
      ? (v.trim() ? [v] : [])
      : typeof v === "number" || typeof v === "boolean"
      ? [String(v)]
      : []
  );
}
