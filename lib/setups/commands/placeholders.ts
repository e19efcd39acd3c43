/**
 * Argument placeholders of each vendor's syntax, filled in one piece of a command's text. In a
 * shell command every value is quoted as one shell word.
 */
import { shellQuote } from "./args.ts";
import type { CustomCommand } from "./types.ts";

/** The arguments of one invocation. */
export interface Invocation {
  /** The text after the command name, as typed. */
  raw: string;
  /** `raw` split into words. */
  words: string[];
  /** Codex's `KEY=value` arguments. */
  named: Map<string, string>;
}

/** `text` with the placeholders of `command.syntax` filled from `args`. */
export function fillPlaceholders(
  text: string,
  command: Pick<CustomCommand, "syntax" | "argumentNames">,
  args: Invocation,
  inShell = false,
): string {
  const q = (value: string) => inShell ? shellQuote(value) : value;
  switch (command.syntax) {
    case "gemini":
      return text.replaceAll("{{args}}", () => q(args.raw));
    case "claude":
      return fillClaude(text, command.argumentNames, args, q);
    case "codex":
      return text.replace(/\$\$|\$ARGUMENTS\b|\$([1-9])|\$([A-Z][A-Z0-9_]*)/g, (m, n, key) => {
        if (m === "$$") return "$";
        if (m === "$ARGUMENTS") return q(args.words.join(" "));
        if (n) return q(args.words[Number(n) - 1] ?? "");
        return q(args.named.get(key) ?? "");
      });
    case "opencode":
      return fillOpencode(text, args, q);
  }
}

function fillClaude(
  text: string,
  names: readonly string[],
  args: Invocation,
  q: (value: string) => string,
): string {
  const pattern = /\\\$|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$(\d+)|\$([A-Za-z_][\w-]*)/g;
  return text.replace(pattern, (m, index, n, name) => {
    if (m === "\\$") return "$";
    const at = index ?? n;
    if (at !== undefined) {
      const word = args.words[Number(at)];
      return word === undefined ? m : q(word);
    }
    if (m === "$ARGUMENTS") return q(args.raw);
    const i = names.indexOf(name);
    return i < 0 ? m : q(args.words[i] ?? "");
  });
}

function fillOpencode(text: string, args: Invocation, q: (value: string) => string): string {
  const highest = Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  return text.replace(/\$ARGUMENTS\b|\$(\d+)/g, (m, n) => {
    if (m === "$ARGUMENTS") return q(args.raw);
    const i = Number(n);
    if (i === 0) return m;
    const value = i === highest ? args.words.slice(i - 1).join(" ") : args.words[i - 1];
    return q(value ?? "");
  });
}

/** Whether `body` takes the arguments anywhere (else they are appended, as each vendor does). */
export function usesArguments(
  body: string,
  command: Pick<CustomCommand, "syntax" | "argumentNames">,
): boolean {
  switch (command.syntax) {
    case "gemini":
      return body.includes("{{args}}");
    case "claude":
      return /\$ARGUMENTS|\$\d/.test(body) ||
        command.argumentNames.some((n) => new RegExp(`\\$${n}\\b`).test(body));
    case "codex":
      return true;
    case "opencode":
      return /\$ARGUMENTS|\$\d/.test(body);
  }
}

/** Codex's named placeholders (`$FILE`) in `body`, in order, each once. */
export function codexNames(body: string): string[] {
  const names = [...body.replaceAll("$$", "").matchAll(/\$([A-Z][A-Z0-9_]*)/g)]
    .map((m) => m[1]).filter((n) => n !== "ARGUMENTS");
  return [...new Set(names)];
}
