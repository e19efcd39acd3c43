import type { ParsedReply, TextProtocol } from "../types.ts";
import { splitWords } from "./_command_line.ts";
import { fill, proseOf } from "./_text.ts";
import type { ProtocolDefinition } from "./types.ts";

/** Where the submit confirmation stands: "asked" after a first submit, "review" once shown. */
const SUBMIT_KEY = "swe_agent.submit";
const SUBMIT_PROSE_KEY = "swe_agent.submit_prose";
const EDITOR = "str_replace_editor";
/** Options that take two values. */
const PAIR_OPTIONS = new Set(["view_range"]);
/** Options whose value is an integer. */
const INT_OPTIONS = new Set(["insert_line", "view_range"]);

/** A command found in a reply, with where it was written. */
interface Action {
  command: string;
  span: [number, number];
}

/**
 * SWE-agent's text protocol: a DISCUSSION, then exactly one command, in a fenced block or one
 * of the XML forms. `str_replace_editor …` lines go to the editor tool, `submit` shows the diff
 * and asks for a second `submit`, which ends the turn; anything else runs as a shell command.
 * Messages: `observation` {output}, `format_error` {problem}, `submit_review` {diff}.
 */
export const sweAgent: ProtocolDefinition = {
  tools: ["bash", EDITOR, "submit"],
  messages: { observation: ["output"], format_error: ["problem"], submit_review: ["diff"] },
  create(messages): TextProtocol {
    return {
      parse: (reply, state) => parse(reply, state, messages),
      observation(results, state) {
        const text = results.map((r) => r.text.replace(/^bash: line \d+: /gm, "bash: "))
          .join("\n");
        if (state.get(SUBMIT_KEY) === "asked") {
          state.set(SUBMIT_KEY, "review");
          return fill(messages.submit_review, { diff: text });
        }
        return fill(messages.observation, { output: text });
      },
    };
  },
};

function parse(
  reply: string,
  state: Map<string, unknown>,
  messages: Record<string, string>,
): ParsedReply {
  const actions = findActions(reply);
  if (actions.length !== 1) {
    const problem = actions.length === 0
      ? "your reply has no command in it"
      : `your reply has ${actions.length} commands in it, and only one is run per reply`;
    return { kind: "format_error", message: fill(messages.format_error, { problem }) };
  }
  const [{ command, span }] = actions;
  const confirming = state.get(SUBMIT_KEY) === "review";
  state.delete(SUBMIT_KEY);
  if (command === "submit") {
    const prose = proseOf(reply, [span]);
    if (confirming) {
      const earlier = String(state.get(SUBMIT_PROSE_KEY) ?? "");
      return { kind: "finish", finalText: prose || earlier };
    }
    state.set(SUBMIT_KEY, "asked");
    state.set(SUBMIT_PROSE_KEY, prose);
    return { kind: "calls", calls: [{ name: "submit", args: {} }] };
  }
  if (command === EDITOR || command.startsWith(`${EDITOR} `) || command.startsWith(`${EDITOR}\n`)) {
    const read = editorArgs(command);
    if ("error" in read) {
      return {
        kind: "format_error",
        message: fill(messages.format_error, { problem: read.error }),
      };
    }
    return { kind: "calls", calls: [{ name: EDITOR, args: read.args }] };
  }
  return { kind: "calls", calls: [{ name: "bash", args: { command } }] };
}

/**
 * `str_replace_editor <command> <path> [--option value]...` as editor arguments. Values are
 * passed on as written (integers converted); the tool's schema reports what is wrong with them.
 */
export function editorArgs(line: string): { args: Record<string, unknown> } | { error: string } {
  const split = splitWords(line);
  if ("error" in split) return { error: `cannot read the ${EDITOR} command: ${split.error}` };
  const [, ...words] = split.words;
  const args: Record<string, unknown> = {};
  const positional = ["command", "path"];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (!word.startsWith("--")) {
      const name = positional.shift();
      if (!name) return { error: `unexpected argument "${word}" in the ${EDITOR} command` };
      args[name] = word;
      continue;
    }
    const eq = word.indexOf("=");
    const name = eq === -1 ? word.slice(2) : word.slice(2, eq);
    const count = PAIR_OPTIONS.has(name) ? 2 : 1;
    const values = eq === -1 ? words.slice(i + 1, i + 1 + count) : word.slice(eq + 1).split(",");
    if (eq === -1) i += values.length;
    if (values.length < count) return { error: `option --${name} needs ${count} value(s)` };
    const typed = values.map((v) => INT_OPTIONS.has(name) && /^-?\d+$/.test(v) ? Number(v) : v);
    args[name] = count === 2 ? typed : typed[0];
  }
  return { args };
}

const XML_FORMS: Array<{ pattern: RegExp; inner: (m: RegExpExecArray) => string | undefined }> = [
  {
    pattern: /<tool_invoke>([\s\S]*?)<\/tool_invoke>/g,
    inner: (m) =>
      /<name>\s*execute_bash\s*<\/name>/.test(m[1])
        ? /<code>([\s\S]*?)<\/code>/.exec(m[1])?.[1]
        : undefined,
  },
  {
    pattern: /<invoke\s+name="(?:bash|execute_bash)"\s*>([\s\S]*?)<\/invoke>/g,
    inner: (m) =>
      (/<parameter\s+name="command"\s*>([\s\S]*?)<\/parameter>/.exec(m[1]) ??
        /<command>([\s\S]*?)<\/command>/.exec(m[1]))?.[1],
  },
  {
    pattern: /<execute_bash>([\s\S]*?)<\/execute_bash>/g,
    inner: (m) => /<code>([\s\S]*?)<\/code>/.exec(m[1])?.[1] ?? m[1],
  },
];

/** The commands in a reply: those of the first XML form present, else the fenced blocks. */
export function findActions(reply: string): Action[] {
  for (const form of XML_FORMS) {
    const found: Action[] = [];
    for (const m of reply.matchAll(form.pattern)) {
      const inner = form.inner(m);
      const command = inner === undefined ? "" : decodeEntities(inner).trim();
      if (command) found.push({ command, span: [m.index, m.index + m[0].length] });
    }
    if (found.length) return found;
  }
  return fencedBlocks(reply);
}

/** Fenced blocks: a line of ``` (an info word such as bash is dropped) up to a closing ```. */
function fencedBlocks(reply: string): Action[] {
  const found: Action[] = [];
  const fence = /^[ \t]*```[^\n`]*\n([\s\S]*?)^[ \t]*```[ \t]*$/gm;
  for (const m of reply.matchAll(fence)) {
    const command = m[1].trim();
    if (command) found.push({ command, span: [m.index, m.index + m[0].length] });
  }
  return found;
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" };
  return text.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-f]+);/gi, (whole, name: string) => {
    if (name[0] !== "#") return named[name.toLowerCase()] ?? whole;
    const code = name[1] === "x" || name[1] === "X"
      ? parseInt(name.slice(2), 16)
      : parseInt(name.slice(1), 10);
    return String.fromCodePoint(code);
  });
}
