/**
 * Calls framed by special tokens, as DeepSeek and Kimi K2 write them: an optional section token,
 * then per call a begin token, a header and the arguments, and an end token. A missing end token
 * ends a call at the next call or the section's end; a missing section end, after the last call.
 */
import { argsOf, skipSpace } from "./_args.ts";
import type { CallFormat, Found, TextCall } from "./types.ts";

/** The tokens of one dialect and how a call's body splits into name and JSON arguments. */
export interface SectionDialect {
  format: CallFormat;
  sectionBegin: string;
  sectionEnd: string;
  callBegin: string;
  callEnd: string;
  /** Tokens that go with the section when they follow it (the end of the reply). */
  trailers?: string[];
  split(body: string): { name: string; args: string } | undefined;
}

/** The section (or lone call) opening at `start`; undefined when a call cannot be split. */
export async function sectionCalls(
  dialect: SectionDialect,
  text: string,
  start: number,
): Promise<Found | undefined> {
  const { sectionBegin, sectionEnd, callBegin, callEnd } = dialect;
  let at = text.startsWith(sectionBegin, start) ? start + sectionBegin.length : start;
  const close = text.indexOf(sectionEnd, at);
  const limit = close === -1 ? text.length : close;
  const calls: TextCall[] = [];
  let end = at;
  for (at = skipSpace(text, at); text.startsWith(callBegin, at); at = skipSpace(text, end)) {
    const bodyStart = at + callBegin.length;
    const callClose = text.indexOf(callEnd, bodyStart);
    const next = text.indexOf(callBegin, bodyStart);
    const bodyEnd = Math.min(
      callClose === -1 ? limit : callClose,
      next === -1 ? limit : next,
      limit,
    );
    const parts = dialect.split(text.slice(bodyStart, bodyEnd));
    if (!parts) return undefined;
    calls.push({ name: parts.name, ...await argsOf(parts.args.trim()) });
    end = bodyEnd === callClose ? callClose + callEnd.length : bodyEnd;
  }
  if (calls.length === 0) return undefined;
  if (at === close) end = close + sectionEnd.length;
  for (const trailer of dialect.trailers ?? []) {
    if (text.startsWith(trailer, skipSpace(text, end))) end = skipSpace(text, end) + trailer.length;
  }
  return { start, end, format: dialect.format, calls };
}
