/**
 * The model's Markdown as a terminal shows it: styled by `marked` with `marked-terminal`, code
 * highlighted by `cli-highlight`, and written as it streams in a whole block at a time, so that
 * no construct is cut (a paragraph streams sooner, up to a word where its markers are closed).
 * The REPL loads this module on first use: the renderer takes a quarter of a second to load.
 */
import { Lexer, Marked, type Token, type Tokens } from "marked";
// @ts-types="./_marked_terminal.d.ts"
import { markedTerminal } from "marked-terminal";
import { highlight, supportsLanguage, type Theme } from "cli-highlight";
import { terminalText } from "../../approval/visible.ts";

/** Renders a whole Markdown text for the terminal; blocks end with a blank line. */
export type MarkdownRenderer = (markdown: string) => string;

/** Options of `terminalMarkdown()`. */
export interface MarkdownOptions {
  /** The terminal's width, for rules. */
  columns?: () => number;
}

type Paint = (text: string) => string;

function sgr(open: string, close: string): Paint {
  return (text) => `\x1b[${open}m${text}\x1b[${close}m`;
}

const bold = sgr("1", "22");
const dim = sgr("2", "22");
const italic = sgr("3", "23");
const underline = sgr("4", "24");
const plain: Paint = (text) => text;

/** Token classes of highlight.js and their colors; a class not named here stays plain. */
const CODE_THEME: Theme = {
  keyword: sgr("35", "39"),
  built_in: sgr("36", "39"),
  type: sgr("36", "39"),
  literal: sgr("33", "39"),
  number: sgr("33", "39"),
  regexp: sgr("31", "39"),
  string: sgr("32", "39"),
  subst: plain,
  symbol: sgr("33", "39"),
  class: sgr("36", "39"),
  function: plain,
  title: sgr("34", "39"),
  params: plain,
  comment: dim,
  doctag: dim,
  meta: dim,
  "meta-keyword": dim,
  "meta-string": dim,
  section: bold,
  tag: dim,
  name: sgr("34", "39"),
  "builtin-name": sgr("36", "39"),
  attr: sgr("36", "39"),
  attribute: sgr("36", "39"),
  variable: plain,
  bullet: plain,
  code: plain,
  emphasis: italic,
  strong: bold,
  formula: plain,
  link: underline,
  quote: dim,
  "selector-tag": sgr("35", "39"),
  "selector-id": sgr("34", "39"),
  "selector-class": sgr("34", "39"),
  "selector-attr": plain,
  "selector-pseudo": plain,
  "template-tag": plain,
  "template-variable": plain,
  addition: sgr("32", "39"),
  deletion: sgr("31", "39"),
  default: plain,
};

/** Our own styling: Select Graphic Rendition sequences, nothing that moves or titles. */
// deno-lint-ignore no-control-regex -- our own styling sequences start with ESC
const STYLING = /(\x1b\[[0-9;]*m)/;

/**
 * `rendered` with every control character but our styling made visible. The text was made
 * visible before it was rendered; this keeps anything a renderer might decode inert as well.
 */
function onlyOurStyling(rendered: string): string {
  return rendered.split(STYLING).map((part, i) => i % 2 === 1 ? part : terminalText(part)).join(
    "",
  );
}

/** A numeric character reference, which the renderer would decode. */
const CHARACTER_REFERENCE = /&#(?:[xX]([0-9a-fA-F]{1,6})|([0-9]{1,7}));/g;

/** `markdown` with each character reference to a control character written as `visible()` does. */
function inertReferences(markdown: string): string {
  return markdown.replace(CHARACTER_REFERENCE, (reference, hex, decimal) => {
    const code = hex ? parseInt(hex, 16) : Number(decimal);
    if (code > 0x10ffff) return reference;
    const ch = String.fromCodePoint(code);
    const shown = terminalText(ch);
    return shown === ch ? reference : shown;
  });
}

function highlightCode(code: string, lang: string | undefined): string {
  const language = lang?.trim().split(/\s+/)[0];
  if (!language || !supportsLanguage(language)) return code;
  try {
    return highlight(code, { language, ignoreIllegals: true, theme: CODE_THEME });
  } catch {
    return code;
  }
}

function indent(text: string, by: string): string {
  return text.split("\n").map((line) => line ? by + line : line).join("\n");
}

/** A renderer of Markdown for a terminal that shows colors. */
export function terminalMarkdown(opts: MarkdownOptions = {}): MarkdownRenderer {
  const marked = new Marked();
  marked.use(
    markedTerminal({
      code: plain,
      blockquote: (text: string) => dim(italic(text)),
      html: dim,
      heading: bold,
      firstHeading: (text: string) => bold(underline(text)),
      listitem: plain,
      table: plain,
      paragraph: plain,
      strong: bold,
      em: italic,
      codespan: sgr("36", "39"),
      del: (text: string) => dim(sgr("9", "29")(text)),
      text: plain,
      unescape: true,
      emoji: false,
      showSectionPrefix: false,
      reflowText: false,
      tab: 2,
      tableOptions: { style: { head: [], border: [] } },
    }),
    {
      renderer: {
        // marked-terminal shows a tight list item's text unparsed: its `code` kept its backticks.
        text(token: Tokens.Text | Tokens.Escape): string | false {
          return "tokens" in token && token.tokens ? this.parser.parseInline(token.tokens) : false;
        },
        // marked-terminal writes a task item's box itself, and marked's token would add another.
        checkbox(): string {
          return "";
        },
        // The address is always shown: a link's text could otherwise hide where it goes.
        link(token: Tokens.Link): string {
          const text = this.parser.parseInline(token.tokens);
          const { href } = token;
          const shown = text === href || `mailto:${text}` === href;
          return shown ? underline(text) : `${text} (${underline(href)})`;
        },
        code(token: Tokens.Code): string {
          const code = token.text.replace(/\n$/, "");
          return `${indent(highlightCode(code, token.lang), "    ")}\n\n`;
        },
        hr(): string {
          const width = Math.min(80, Math.max(10, (opts.columns?.() ?? 80) - 2));
          return `${dim("─".repeat(width))}\n\n`;
        },
      },
    },
  );
  return (markdown) => onlyOurStyling(marked.parse(inertReferences(markdown), { async: false }));
}

/**
 * Splits Markdown as it streams: `push()` returns the rendered text that can be written now,
 * `end()` the rest. Whole blocks are written once complete (a paragraph or table ended by a
 * blank line, a heading or rule by its newline, a fenced block by its closing fence, a list
 * once the next block starts); an unfinished paragraph is written up to its last word whose
 * emphasis, code spans and links are all closed. Blank lines between blocks are held back until
 * the next block, so the message never ends in one.
 */
export class MarkdownStream {
  #render: MarkdownRenderer;
  /** Markdown not written yet, made visible. */
  #pending = "";
  /** What of the paragraph that starts `#pending` has been written, as rendered. */
  #shown = "";
  /** Newlines after the last block, written before the next. */
  #newlines = "";
  /** The type of the last block of `#pending` when it was last read. */
  #lastType: string | undefined;

  constructor(render: MarkdownRenderer) {
    this.#render = render;
  }

  /** Takes the next piece of the text; returns what can be written now. */
  push(text: string): string {
    this.#pending += terminalText(text);
    // Only a line's end can finish a block; a word's end can move a paragraph on.
    const waiting = this.#lastType !== undefined && this.#lastType !== "paragraph";
    if (waiting && !text.includes("\n")) return "";
    const tokens = new Lexer().lex(this.#pending);
    const done = completeLength(tokens, this.#pending);
    let out = "";
    if (done > 0) {
      out += this.#blocks(this.#pending.slice(0, done));
      this.#pending = this.#pending.slice(done);
    }
    const rest = done > 0 ? new Lexer().lex(this.#pending) : tokens;
    const open = rest.filter((t) => t.type !== "space");
    this.#lastType = open.at(-1)?.type;
    if (open.length === 1 && open[0].type === "paragraph") out += this.#paragraphSoFar();
    return out;
  }

  /** The rest of the text, rendered; trailing blank lines are left out. */
  end(): string {
    const rest = this.#pending.trim() === "" ? "" : this.#blocks(this.#pending);
    this.#pending = "";
    this.#shown = "";
    this.#newlines = "";
    this.#lastType = undefined;
    return rest;
  }

  /** Renders complete blocks, after what was written of the first one. */
  #blocks(markdown: string): string {
    let rendered = this.#render(markdown);
    if (this.#shown) {
      // The paragraph began as written; if it turned into something else (a heading
      // underlined on its next line), it is shown again whole on a line of its own.
      rendered = rendered.startsWith(this.#shown)
        ? rendered.slice(this.#shown.length)
        : `\n${rendered}`;
      this.#shown = "";
    }
    return this.#emit(rendered);
  }

  /** Writes the unfinished paragraph up to its last word after which all is closed. */
  #paragraphSoFar(): string {
    const cut = closedCut(this.#pending);
    if (cut === 0) return "";
    const rendered = this.#render(this.#pending.slice(0, cut)).replace(/\n+$/, "");
    if (!rendered.startsWith(this.#shown) || rendered.length === this.#shown.length) return "";
    const more = rendered.slice(this.#shown.length);
    this.#shown = rendered;
    return this.#emit(more);
  }

  /** `text` after the newlines held back; its own trailing newlines are held back instead. */
  #emit(text: string): string {
    const body = text.replace(/\n+$/, "");
    if (body === "") {
      this.#newlines += text;
      return "";
    }
    const out = this.#newlines + body;
    this.#newlines = text.slice(body.length);
    return out;
  }
}

/** Blocks that a blank line after them does not end. */
const CONTINUED_PAST_BLANK = new Set(["list"]);

/** How many characters at the start of `text` (lexed as `tokens`) form complete blocks. */
export function completeLength(tokens: Token[], text: string): number {
  if (tokens.reduce((n, t) => n + t.raw.length, 0) !== text.length) return 0;
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last].type === "space") last--;
  if (last < 0) return 0;
  const before = tokens.slice(0, last).reduce((n, t) => n + t.raw.length, 0);
  const token = tokens[last];
  const blankAfter = last < tokens.length - 1;
  const finished = (blankAfter && !CONTINUED_PAST_BLANK.has(token.type) && !indentedCode(token)) ||
    ((token.type === "heading" || token.type === "hr") && token.raw.endsWith("\n")) ||
    closedFence(token);
  // What follows the last newline may be the indentation of the next block: it stays.
  return finished ? text.lastIndexOf("\n") + 1 : before;
}

function indentedCode(token: Token): boolean {
  return token.type === "code" && (token as Tokens.Code).codeBlockStyle === "indented";
}

/** A fenced block with its closing fence and the newline after it. */
function closedFence(token: Token): boolean {
  if (token.type !== "code" || indentedCode(token) || !token.raw.endsWith("\n")) return false;
  const lines = token.raw.replace(/\n+$/, "").split("\n");
  const open = /^ {0,3}(`{3,}|~{3,})/.exec(lines[0])?.[1];
  const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(lines.at(-1)!)?.[1];
  return lines.length > 1 && open !== undefined && close !== undefined &&
    close[0] === open[0] && close.length >= open.length;
}

/**
 * The end of the last word of `paragraph` (the index after a space) before which every code
 * span, emphasis marker pair, link and tag is closed; 0 when there is none.
 */
export function closedCut(paragraph: string): number {
  let cut = 0;
  let code = 0; // the length of the backtick run that opened the code span we are in
  let stars = 0;
  let tildes = 0;
  let underscores = 0;
  let brackets = 0;
  let inDestination = false;
  let inTag = false;
  for (let i = 0; i < paragraph.length; i++) {
    const ch = paragraph[i];
    if (ch === "`") {
      let run = 1;
      while (paragraph[i + run] === "`") run++;
      if (code === 0) code = run;
      else if (run === code) code = 0;
      i += run - 1;
      continue;
    }
    if (code > 0) continue;
    // A run of markers opens or closes emphasis: runs are counted, not characters.
    const runStart = paragraph[i - 1] !== ch;
    if (ch === "\\") i++;
    else if (ch === "*") stars += runStart ? 1 : 0;
    else if (ch === "~") tildes += runStart ? 1 : 0;
    else if (ch === "_" && !(isWordChar(paragraph[i - 1]) && isWordChar(paragraph[i + 1]))) {
      underscores += runStart ? 1 : 0;
    } else if (ch === "[") brackets++;
    else if (ch === "]") {
      brackets = Math.max(0, brackets - 1);
      if (paragraph[i + 1] === "(") inDestination = true;
    } else if (ch === ")" && inDestination) inDestination = false;
    else if (ch === "<" && /[A-Za-z/!]/.test(paragraph[i + 1] ?? "")) inTag = true;
    else if (ch === ">") inTag = false;
    // The line may be a table's header row: nothing of it is written before the table is known.
    else if (ch === "|") return Math.min(cut, paragraph.lastIndexOf("\n", i) + 1);
    else if (ch === " ") {
      const closed = stars % 2 === 0 && tildes % 2 === 0 && underscores % 2 === 0 &&
        brackets === 0 && !inDestination && !inTag;
      if (closed) cut = i + 1;
    }
  }
  return cut;
}

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
}
