/**
 * Reads a Gemini `generateContent` request into the common view: `systemInstruction`, the
 * `functionDeclarations` of `tools`, and `contents` whose model turns hold `functionCall` parts
 * (and thought parts, and `thoughtSignature`s) and whose user turns hold `functionResponse`
 * parts and text.
 */
import {
  asArray,
  eachObject,
  type HistoryEntry,
  namedCall,
  type RequestView,
  stringOr,
  textOf,
} from "./request_view.ts";
import { checkGeminiTools, isObject } from "./tool_shapes.ts";

/** Fills `view` from a Gemini request body sent with `headers`. */
export function viewGemini(
  body: Record<string, unknown>,
  headers: Headers,
  view: RequestView,
): void {
  if (!headers.get("x-goog-api-key")) view.problems.push('Header "x-goog-api-key" is missing');
  if ("model" in body || "stream" in body || "messages" in body) {
    view.problems.push(
      'A Gemini body has no "model", "stream" or "messages": they are OpenAI keys',
    );
  }
  const tools = checkGeminiTools(body.tools);
  view.toolNames = tools.names;
  view.problems.push(...tools.problems);
  if (body.systemInstruction !== undefined) {
    const system = isObject(body.systemInstruction) ? body.systemInstruction.parts : undefined;
    view.system += textOf(system) + "\n";
  }
  if (!Array.isArray(body.contents)) {
    view.problems.push('"contents" must be an array');
    return;
  }
  eachObject(body.contents, "contents", view, (content, where) => {
    const parts = asArray(content.parts, `${where}.parts`, view);
    if (content.role === "model") modelTurn(parts, `${where}.parts`, view);
    else if (content.role === "user") userTurn(parts, `${where}.parts`, view);
    else view.problems.push(`${where} has role ${JSON.stringify(content.role)}`);
  });
}

function modelTurn(parts: unknown[], where: string, view: RequestView): void {
  const entry: HistoryEntry = { kind: "assistant", calls: [], thinking: [] };
  eachObject(parts, where, view, (part, at) => {
    const sealed = stringOr(part.thoughtSignature);
    if (part.thought === true) entry.thinking.push({ text: stringOr(part.text), sealed });
    else if (sealed !== undefined) entry.thinking.push({ sealed });
    if (part.functionCall === undefined) return;
    const call = part.functionCall;
    if (!isObject(call) || typeof call.id !== "string" || !isObject(call.args ?? {})) {
      view.problems.push(`${at}.functionCall must be {id, name, args} with a string id`);
    } else {
      const viewed = namedCall(call.id, call.name, call.args ?? {});
      if (sealed !== undefined) viewed.sealed = sealed;
      entry.calls.push(viewed);
    }
  });
  view.history.push(entry);
}

/** Function responses become entries of their own; the other parts are one user entry. */
function userTurn(parts: unknown[], where: string, view: RequestView): void {
  let text = "";
  let sawOther = false;
  eachObject(parts, where, view, (part, at) => {
    if (part.functionResponse === undefined) {
      sawOther ||= typeof part.text === "string";
      text += typeof part.text === "string" ? part.text : "";
      return;
    }
    const response = part.functionResponse;
    if (sawOther) view.problems.push(`${at} is a functionResponse after text; results come first`);
    if (!isObject(response) || typeof response.id !== "string" || !isObject(response.response)) {
      view.problems.push(`${at}.functionResponse must be {id, name, response} with a string id`);
      return;
    }
    const result = response.response;
    const output = result.output ?? result.error;
    const resultText = typeof output === "string" ? output : JSON.stringify(output ?? result);
    view.history.push({ kind: "tool_result", callId: response.id, text: resultText });
  });
  if (sawOther) view.history.push({ kind: "user", text });
}
