/**
 * Chat Completions as routers such as OpenRouter extend it (`compat.cacheMarkers`,
 * `compat.reasoningField = "reasoning_details"`): Anthropic `cache_control` markers on content
 * parts, and reasoning as structured `reasoning_details` entries that keep each block's signature.
 */
import type { Block, SystemPart } from "../model/message.ts";
import { appendText, rec, str } from "./_blocks.ts";

type Json = Record<string, unknown>;

const EPHEMERAL = Object.freeze({ type: "ephemeral" });
export const REASONING_DETAILS = "reasoning_details";

/** The system message: one string, or with markers each part on its own, cached ones marked. */
export function systemMessage(parts: SystemPart[], markers: boolean): Json | undefined {
  const kept = parts.filter((p) => p.text);
  if (kept.length === 0) return undefined;
  if (!markers || !kept.some((p) => p.cache)) {
    return { role: "system", content: kept.map((p) => p.text).join("\n\n") };
  }
  const content = kept.map((p) => p.cache ? cachedText(p.text) : { type: "text", text: p.text });
  return { role: "system", content };
}

/** A text part with a cache breakpoint. */
export function cachedText(text: string): Json {
  return { type: "text", text, cache_control: EPHEMERAL };
}

/** Puts a cache breakpoint on the last content part of the last message that has content. */
export function markLastMessage(messages: Json[]): void {
  const last = messages.at(-1);
  if (!last) return;
  if (typeof last.content === "string" && last.content !== "") {
    last.content = [cachedText(last.content)];
  } else if (Array.isArray(last.content) && last.content.length > 0) {
    last.content.at(-1).cache_control = EPHEMERAL;
  }
}

/** The thinking blocks of a reply as `reasoning_details` entries, signatures kept. */
export function reasoningDetails(blocks: Block[]): Json[] {
  const thinking = blocks.filter((b) => b.type === "thinking");
  return thinking.map((b, index): Json => {
    if (b.encrypted && !b.text) return { type: "reasoning.encrypted", data: b.encrypted, index };
    const entry: Json = { type: "reasoning.text", text: b.text, index };
    if (b.signature) entry.signature = b.signature;
    return entry;
  });
}

/**
 * Reads one delta's `reasoning_details` into `blocks`: text joins the thinking block being
 * written, a signature seals it, encrypted data becomes a block of its own. Returns the text.
 */
export function readReasoningDetails(details: unknown[], blocks: Block[]): string {
  let text = "";
  for (const detail of details.map(rec)) {
    const piece = str(detail.text) ?? str(detail.summary) ?? "";
    if (piece) {
      appendText(blocks, "thinking", piece);
      text += piece;
    }
    const last = blocks.at(-1);
    const signature = str(detail.signature);
    if (signature && last?.type === "thinking") last.signature = (last.signature ?? "") + signature;
    const data = str(detail.data);
    if (detail.type === "reasoning.encrypted" && data) {
      blocks.push({ type: "thinking", text: "", encrypted: data });
    }
  }
  return text;
}
