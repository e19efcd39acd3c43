/**
 * A deliberately small shell tokenizer for the known-safe check: it splits a script into plain
 * commands joined by `&&`, `||`, `;`, `|` or newlines, and gives up (returns undefined) on
 * anything whose words bash, sh or zsh could expand into something other than what is written:
 * redirections, subshells and groups, `$` expansions, backticks, heredocs, background `&`,
 * comments, unquoted glob characters (zsh's `^` too), brace expansion, tilde forms other than a
 * plain `~` or `~/`, zsh's `=name`, and control flow. The words it returns are the words the
 * program will see, except that a leading `~` stays as written (the shell gives `$HOME`).
 */

const OPERATORS = ["&&", "||", ";", "|", "\n"];
const REFUSED_CHARS = new Set([
  "<",
  ">",
  "(",
  ")",
  "$",
  "`",
  "&",
  "#",
  "*",
  "?",
  "[",
  "]",
  "{",
  "}",
  "^",
]);
/** Characters after which a word ends (so a `~` before them is a plain `~`). */
const WORD_END = new Set([" ", "\t", "\n", ";", "|", "&"]);
const KEYWORDS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "for",
  "while",
  "until",
  "do",
  "done",
  "case",
  "esac",
  "select",
  "function",
  "time",
  "coproc",
  "{",
  "}",
  "!",
  "[[",
  "]]",
]);

/** Splits `script` into the argv of each plain command, or undefined when it is not that simple. */
export function splitPlainCommands(script: string): string[][] | undefined {
  const commands: string[][] = [[]];
  let word: string | undefined;
  const endWord = () => {
    if (word !== undefined) commands[commands.length - 1].push(word);
    word = undefined;
  };
  for (let i = 0; i < script.length; i++) {
    const ch = script[i];
    const op = OPERATORS.find((o) => script.startsWith(o, i));
    if (op) {
      endWord();
      if (commands[commands.length - 1].length === 0) {
        if (op === "\n") continue;
        return undefined;
      }
      commands.push([]);
      i += op.length - 1;
    } else if (ch === " " || ch === "\t") endWord();
    else if (ch === "'") {
      const close = script.indexOf("'", i + 1);
      if (close === -1) return undefined;
      word = (word ?? "") + script.slice(i + 1, close);
      i = close;
    } else if (ch === '"') {
      const read = readDoubleQuoted(script, i + 1);
      if (!read) return undefined;
      word = (word ?? "") + read.text;
      i = read.end;
    } else if (ch === "\\") {
      if (i + 1 >= script.length) return undefined;
      if (script[i + 1] !== "\n") word = (word ?? "") + script[i + 1];
      i++;
    } else if (REFUSED_CHARS.has(ch) || expands(script, i, word === undefined)) return undefined;
    else word = (word ?? "") + ch;
  }
  endWord();
  const last = commands[commands.length - 1];
  if (last.length === 0) {
    if (commands.length === 1) return undefined;
    if (!/;\s*$|\n\s*$/.test(script)) return undefined;
    commands.pop();
  }
  return commands.some((argv) => KEYWORDS.has(argv[0]) || /^\w+=/.test(argv[0]))
    ? undefined
    : commands;
}

/**
 * Whether the unquoted `ch = script[i]` starts an expansion: any `~` but a leading `~` or `~/`
 * (which only give `$HOME`), and a leading `=` followed by a name (zsh's command path).
 */
function expands(script: string, i: number, atWordStart: boolean): boolean {
  const next = script[i + 1];
  if (script[i] === "~") {
    return !atWordStart || !(next === undefined || next === "/" || WORD_END.has(next));
  }
  return script[i] === "=" && atWordStart && next !== undefined && !WORD_END.has(next);
}

function readDoubleQuoted(script: string, from: number): { text: string; end: number } | undefined {
  let text = "";
  for (let i = from; i < script.length; i++) {
    const ch = script[i];
    if (ch === '"') return { text, end: i };
    if (ch === "$" || ch === "`") return undefined;
    if (ch === "\\" && i + 1 < script.length && '"\\\n'.includes(script[i + 1])) {
      if (script[i + 1] !== "\n") text += script[i + 1];
      i++;
    } else text += ch;
  }
  return undefined;
}
