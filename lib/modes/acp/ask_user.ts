/**
 * The model's questions (`user.ask`) put to the editor. A client that declares form elicitation
 * (`clientCapabilities.elicitation.form`) gets one `elicitation/create` form with a field per
 * question. Any other client gets a `session/request_permission` per question, its options as
 * the permission options and "Skip" to dismiss; a question without options (free text only)
 * cannot be answered that way and gets no answer. A client that answers with an error dismisses
 * the questions (a line on stderr says why).
 */
import type { AgentContext, ClientCapabilities, PermissionOption } from "@agentclientprotocol/sdk";
import { formAnswers, questionForm } from "../../session/question_form.ts";
import type { SessionIO } from "../../session/types.ts";

type AskUser = NonNullable<SessionIO["askUser"]>;
type UserQuestion = Parameters<AskUser>[0][number];

/** Where the questions of one session go. */
export interface AcpAskTarget {
  client: AgentContext;
  capabilities?: ClientCapabilities | null;
  sessionId(): string;
  /** The editor's id of tool call `callId`. */
  toolCallId(callId: string): string;
  /** Resolves once the updates sent so far (the call the question is about) are out. */
  sent(): Promise<void>;
  /** One line on stderr. */
  log(line: string): void;
}

const SKIP = "skip";

/** The `askUser` of a session whose editor is `target`. */
export function acpAskUser(target: AcpAskTarget): AskUser {
  const ask = askWith(target);
  return async (questions, meta, signal) => {
    try {
      return await ask(questions, meta, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      target.log(
        `The client's answer to the model's questions failed, so they were dismissed: ${
          (error as Error).message
        }`,
      );
      return null;
    }
  };
}

function askWith(target: AcpAskTarget): AskUser {
  const form = target.capabilities?.elicitation?.form;
  return async (questions, meta, signal) => {
    await target.sent();
    const toolCallId = target.toolCallId(meta.callId);
    const opts = { cancellationSignal: signal, stopWaitingOnCancel: true };
    if (form) {
      const reply = await target.client.request("elicitation/create", {
        mode: "form",
        sessionId: target.sessionId(),
        toolCallId,
        ...questionForm(questions),
      }, opts);
      return formAnswers(questions, reply);
    }
    const answers = [];
    for (const question of questions) {
      if (question.options.length === 0) {
        answers.push({ id: question.id, answers: [] });
        continue;
      }
      const { outcome } = await target.client.request("session/request_permission", {
        sessionId: target.sessionId(),
        toolCall: {
          toolCallId,
          title: question.header || question.question,
          content: [{ type: "content", content: { type: "text", text: questionText(question) } }],
        },
        options: permissionOptions(question),
      }, opts);
      if (outcome.outcome !== "selected" || outcome.optionId === SKIP) return null;
      const label = question.options[Number(outcome.optionId.slice(1))]?.label;
      answers.push({ id: question.id, answers: label === undefined ? [] : [label] });
    }
    return answers;
  };
}

/** Each option as an "allow once" choice (ids o0, o1, …), then "Skip", which dismisses. */
function permissionOptions(question: UserQuestion): PermissionOption[] {
  return [
    ...question.options.map((o, i): PermissionOption => ({
      optionId: `o${i}`,
      name: o.label,
      kind: "allow_once",
    })),
    { optionId: SKIP, name: "Skip", kind: "reject_once" },
  ];
}

function questionText(question: UserQuestion): string {
  const lines = [question.question];
  for (const o of question.options) if (o.description) lines.push(`- ${o.label}: ${o.description}`);
  if (question.multiSelect) lines.push("(Several may apply: pick the main one.)");
  return lines.join("\n");
}
