/**
 * A command's text cut into what is sent as written and what runs first: Claude Code's and
 * opencode's `` !`cmd` `` (at the start of a line or after whitespace) and ```` ```! ```` fences,
 * Gemini CLI's and Qwen Code's `!{cmd}` (braces balanced). Only the file's own text is cut: what
 * a command prints is never scanned again.
 */
import type { CommandSyntax } from "./types.ts";

/** One piece of a command's text; `line` is where it starts, counted from the body's first. */
export type Segment =
  | { type: "text"; text: string; line: number }
  | { type: "shell"; command: string; line: number };

/** `body` in segments; an unclosed `!{` is an error naming its line. */
export function segmentsOf(body: string, syntax: CommandSyntax): Segment[] {
  if (syntax === "codex") return [{ type: "text", text: body, line: 0 }];
  return syntax === "gemini" ? braceSegments(body) : backtickSegments(body);
}

/** The shell commands of `body`, in order. */
export function shellCommands(body: string, syntax: CommandSyntax): string[] {
  return segmentsOf(body, syntax).flatMap((s) => s.type === "shell" ? [s.command] : []);
}

function lineAt(text: string, index: number): number {
  let n = 0;
  for (let i = 0; i < index; i++) if (text[i] === "\n") n++;
  return n;
}

function backtickSegments(body: string): Segment[] {
  const out: Segment[] = [];
  const pattern = /(^|(?<=\s))!`([^`\n]+)`|^```!\s*\n([\s\S]*?)\n```[ \t]*$/gm;
  let last = 0;
  for (const m of body.matchAll(pattern)) {
    const at = m.index! + (m[1]?.length ?? 0);
    if (at > last) out.push({ type: "text", text: body.slice(last, at), line: lineAt(body, last) });
    out.push({ type: "shell", command: (m[2] ?? m[3]).trim(), line: lineAt(body, at) });
    last = m.index! + m[0].length;
  }
  if (last < body.length) {
    out.push({ type: "text", text: body.slice(last), line: lineAt(body, last) });
  }
  return out;
}

function braceSegments(body: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (let i = body.indexOf("!{"); i >= 0; i = body.indexOf("!{", last)) {
    const end = closingBrace(body, i + 2);
    if (end < 0) {
      throw new SyntaxError(
        `line ${lineAt(body, i) + 1} of the prompt: "!{" has no matching "}"`,
      );
    }
    if (i > last) out.push({ type: "text", text: body.slice(last, i), line: lineAt(body, last) });
    out.push({ type: "shell", command: body.slice(i + 2, end).trim(), line: lineAt(body, i) });
    last = end + 1;
  }
  if (last < body.length) {
    out.push({ type: "text", text: body.slice(last), line: lineAt(body, last) });
  }
  return out;
}

/** The index of the `}` that closes a brace opened just before `from`, or -1. */
function closingBrace(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === "{") depth++;
    if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}
