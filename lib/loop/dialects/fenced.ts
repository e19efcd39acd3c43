/** A lone `{"name": …, "arguments": {…}}` object as the whole content of a fenced block. */
import { balancedEnd } from "../_loose_json.ts";
import { envelopeCall } from "./_args.ts";
import type { TextCall } from "./types.ts";

const FENCE =
  /^[ \t]*(?:`{3,}|~{3,})[ \t]*(?:json|tool_call)?[ \t]*\n([\s\S]*?)\n?[ \t]*(?:`{3,}|~{3,})?[ \t]*$/i;

/** The call a fence holds; only the envelope's own keys are allowed (`strictKeys`). */
export async function fencedCall(fence: string): Promise<TextCall[] | undefined> {
  const body = FENCE.exec(fence)?.[1].trim();
  if (!body?.startsWith("{") || balancedEnd(body, 0) !== body.length) return undefined;
  const call = await envelopeCall(body, { strictKeys: true });
  return call ? [call] : undefined;
}
