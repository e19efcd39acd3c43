/**
 * How a `Bash(...)` rule matches a command's text, as Claude Code words it: the command is cut
 * into its parts at `&&`, `||`, `;`, `|`, `|&`, `&` and newlines (outside quotes); each part loses
 * its `VAR=value` prefixes and the wrappers that only change how a program runs (`timeout`,
 * `time`, `nice`, `nohup`, `stdbuf`, `command`, `builtin`, `noglob`, a bare `xargs`); then a
 * pattern matches a part exactly, `*` spans anything (spaces too), a trailing ` *` also matches
 * the bare command, and a trailing `:*` is the older prefix form (`git diff:*` covers `git diff`,
 * `git diff --cached` and `git diff-tree` alike). Rules match the command's text, not what the shell makes of it.
 */

/** Variables an allow rule must not skip over: they change which program runs or how. */
const UNSAFE_VARIABLE =
  /^(PATH|LD_\w*|DYLD_\w*|BASH_ENV|ENV|IFS|PS4|SHELLOPTS|BASHOPTS|PROMPT_COMMAND)=/;
const ASSIGNMENT = /^[A-Za-z_]\w*=/;
const WRAPPERS = new Set([
  "timeout",
  "time",
  "nice",
  "nohup",
  "stdbuf",
  "command",
  "builtin",
  "noglob",
]);

/** The parts of `command` a rule is matched against, each trimmed; `$(…)` and backtick bodies too. */
export function commandParts(command: string): string[] {
  const parts = splitOperators(command);
  for (const inner of substitutions(command)) parts.push(...splitOperators(inner));
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

/**
 * `part` without its leading assignments and wrappers; undefined when an allow rule may not
 * look past them (`forAllow` and an assignment to `PATH`, `LD_PRELOAD` and the like).
 */
export function strippedPart(part: string, forAllow: boolean): string | undefined {
  let words = part.split(/\s+/).filter(Boolean);
  for (;;) {
    const first = words[0];
    if (first === undefined) return "";
    if (ASSIGNMENT.test(first)) {
      if (forAllow && UNSAFE_VARIABLE.test(first)) return undefined;
      words = words.slice(1);
    } else if (WRAPPERS.has(first)) {
      words = withoutWrapper(first, words.slice(1));
    } else if (first === "xargs" && words[1] !== undefined && !words[1].startsWith("-")) {
      words = words.slice(1);
    } else {
      return words.join(" ");
    }
  }
}

/** True when pattern `specifier` (a `Bash(...)` rule's inside) matches the command part `text`. */
export function bashPatternMatches(specifier: string, text: string): boolean {
  let rest = specifier.trim();
  let source = "";
  let tail = "";
  if (rest.endsWith(":*")) {
    // The older prefix form: `npm run test:*` covers `npm run test` and `npm run test:unit`.
    rest = rest.slice(0, -2);
    tail = ".*";
  } else if (rest.endsWith(" *")) {
    rest = rest.slice(0, -2);
    tail = "(?: .*)?";
  }
  for (const ch of rest) source += ch === "*" ? ".*" : ch.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${source}${tail}$`, "s").test(text.replace(/\s+/g, " ").trim());
}

/** The words after a wrapper, without the wrapper's own options and arguments. */
function withoutWrapper(wrapper: string, words: string[]): string[] {
  let i = 0;
  const takesValue = wrapper === "timeout"
    ? new Set(["-s", "-k", "--signal", "--kill-after"])
    : wrapper === "nice"
    ? new Set(["-n", "--adjustment"])
    : new Set<string>();
  while (i < words.length && words[i].startsWith("-")) {
    i += takesValue.has(words[i]) ? 2 : 1;
  }
  // timeout's duration comes before the command.
  if (wrapper === "timeout" && i < words.length) i++;
  return words.slice(i);
}

/** `command` cut at the control operators outside quotes. */
function splitOperators(command: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (quote) {
      current += ch;
      if (ch === "\\" && quote === '"' && i + 1 < command.length) current += command[++i];
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "\\" && i + 1 < command.length) {
      current += ch + command[++i];
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    const two = command.slice(i, i + 2);
    if (["&&", "||", "|&"].includes(two) || ch === ";" || ch === "|" || ch === "\n") {
      parts.push(current);
      current = "";
      if (two === "&&" || two === "||" || two === "|&") i++;
      continue;
    }
    // A lone `&` ends a part, but not a redirection's (`2>&1`, `&>file`).
    if (ch === "&" && command[i - 1] !== ">" && command[i + 1] !== ">") {
      parts.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts;
}

/** The bodies of `$(…)` and backtick substitutions in `command`, outside single quotes. */
function substitutions(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/\$\(([^()]*)\)|`([^`]*)`/g)) out.push(m[1] ?? m[2]);
  return out;
}
