import { terminalText } from "../../approval/visible.ts";

/** Styling for terminal output; plain when the stream is not a terminal or NO_COLOR is set. */
export interface Style {
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  green(text: string): string;
}

/**
 * Whether output to a stream may be colored: only on a terminal, never under `NO_COLOR` (any
 * value) or `TERM=dumb`. One rule for the REPL, exec's progress and eval's report.
 */
export function colorWanted(env: Record<string, string | undefined>, isTerminal: boolean): boolean {
  return isTerminal && !env.NO_COLOR && env.TERM !== "dumb";
}

/** ANSI styling, or none. */
export function makeStyle(color: boolean): Style {
  const wrap = (code: string) => (text: string) => color ? `\x1b[${code}m${text}\x1b[0m` : text;
  return { dim: wrap("2"), bold: wrap("1"), red: wrap("31"), green: wrap("32") };
}

/** A unified diff line: additions green, removals red, the rest dim; controls made visible. */
export function colorDiffLine(untrusted: string, style: Style): string {
  const line = terminalText(untrusted);
  if (line.startsWith("+") && !line.startsWith("+++")) return style.green(line);
  if (line.startsWith("-") && !line.startsWith("---")) return style.red(line);
  return style.dim(line);
}
