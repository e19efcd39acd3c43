/**
 * Kimi K2's tool-call section, as its chat template writes it (the id is `functions.NAME:INDEX`):
 *
 *     <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}<|tool_call_end|><|tool_calls_section_end|>
 *
 * Also read without the section tokens, and with a bare `NAME` or `NAME:0` as the id. The id is
 * not kept: not every wire takes its characters, so the call gets a fresh one.
 */
import { sectionCalls, type SectionDialect } from "./_sections.ts";
import type { Found } from "./types.ts";

export const KIMI_TAGS = ["<|tool_calls_section_begin|>", "<|tool_call_begin|>"];
const ARGS = "<|tool_call_argument_begin|>";
const ID = /^(?:functions\.)?([A-Za-z0-9_.-]+?)(?::\d+)?$/;

const KIMI: SectionDialect = {
  format: "kimi",
  sectionBegin: "<|tool_calls_section_begin|>",
  sectionEnd: "<|tool_calls_section_end|>",
  callBegin: "<|tool_call_begin|>",
  callEnd: "<|tool_call_end|>",
  split(body) {
    const at = body.indexOf(ARGS);
    const id = at === -1 ? null : ID.exec(body.slice(0, at).trim());
    return id ? { name: id[1], args: body.slice(at + ARGS.length) } : undefined;
  },
};

/** The calls opening at `start` (a section token or a lone call token). */
export function kimiCalls(text: string, start: number): Promise<Found | undefined> {
  return sectionCalls(KIMI, text, start);
}
