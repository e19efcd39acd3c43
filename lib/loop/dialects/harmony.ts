/**
 * gpt-oss harmony messages left in the text when the server did not parse them. A call is a
 * message with a recipient, written by the chat template as
 *
 *     <|start|>assistant to=functions.NAME<|channel|>commentary json<|message|>{…}<|call|>
 *
 * and by the model, after the template's `<|start|>assistant`, as
 *
 *     <|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>
 *
 * Also read: either header without `<|start|>assistant` (a reply may open on ` to=NAME`), the
 * recipient without `functions.`, `NAMEjson` with the content type glued on, and a message that
 * ends in `<|end|>`, at the next header or with the text. Messages without a recipient lose
 * their markup when a call is read beside them: analysis becomes thinking, the rest stays text.
 */
import { argsOf, matchAt } from "./_args.ts";
import type { Found, TextCall, ToolMap } from "./types.ts";

const RECIPIENT = String.raw`to=([^\s<]+)[ \t]*`;
const HEADER = new RegExp(
  String.raw`(?:<\|start\|>)?[ \t]*(?:assistant)?[ \t]*(?:${RECIPIENT})?` +
    String.raw`(?:<\|channel\|>[ \t]*(\w+)[ \t]*(?:${RECIPIENT})?)?` +
    String.raw`(?:<\|constrain\|>[ \t]*)?(?:[\w-]+)?[ \t]*<\|message\|>`,
);
/** What ends a message: its own end tokens (taken with it), or the next message's start. */
const MESSAGE_END = /<\|(call|end|return)\|>|(?=<\|start\|>|<\|channel\|>)/;

/** The harmony message whose header opens at `start`. */
export async function harmonyCalls(
  text: string,
  start: number,
  tools: ToolMap,
): Promise<Found | undefined> {
  const head = matchAt(HEADER, text, start);
  if (!head) return undefined;
  const header = head.match;
  const stop = MESSAGE_END.exec(text.slice(head.end));
  const bodyEnd = stop ? head.end + stop.index : text.length;
  const end = stop ? bodyEnd + stop[0].length : text.length;
  const body = text.slice(head.end, bodyEnd);
  const recipient = header[1] ?? header[3];
  const found: Found = { start, end, format: "harmony", calls: [] };
  if (recipient) return { ...found, calls: [await callOf(recipient, body, tools)] };
  return header[2] === "analysis" ? { ...found, thinking: body.trim() } : { ...found, keep: body };
}

async function callOf(recipient: string, body: string, tools: ToolMap): Promise<TextCall> {
  let name = recipient.replace(/^functions\./, "");
  if (!tools.has(name) && name.endsWith("json") && tools.has(name.slice(0, -4))) {
    name = name.slice(0, -4);
  }
  return { name, ...await argsOf(body.trim()) };
}
