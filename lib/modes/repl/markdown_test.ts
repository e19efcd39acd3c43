import assert from "node:assert/strict";
import { closedCut, MarkdownStream, terminalMarkdown } from "./markdown.ts";

const render = terminalMarkdown({ columns: () => 40 });
const ESC = "\x1b";

/** Streams `chunks` and returns what each push wrote, then what `end()` wrote. */
function stream(chunks: string[]): { pushed: string[]; ended: string } {
  const s = new MarkdownStream(render);
  const pushed = chunks.map((chunk) => s.push(chunk));
  return { pushed, ended: s.end() };
}

/** `text` cut into pieces of `size` characters. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The control characters left after taking out Select Graphic Rendition sequences. */
function controlsBesideStyling(text: string): string[] {
  return [...text.replace(new RegExp(`${ESC}\\[[0-9;]*m`, "g"), "")].filter((ch) => {
    const code = ch.charCodeAt(0);
    return (code < 0x20 && ch !== "\n") || (code >= 0x7f && code <= 0x9f);
  });
}

const ANSWER = [
  "# Plan",
  "",
  "Run `deno test` first, then **fix** what *fails* (see [the docs](https://deno.land/x)).",
  "",
  "```python",
  "def add(a, b):",
  '    return a + b  # "sum"',
  "```",
  "",
  "1. First step",
  "",
  "   with a detail",
  "",
  "2. Second step",
  "",
  "| name | size |",
  "| ---- | ---- |",
  "| a.py | 12 |",
  "",
  "- one",
  "- two",
  "",
  "That is all.",
].join("\n");

/** Constructs that continue past a line or a blank line, and markers that do not pair. */
const TRICKY = [
  "Intro text:\n- a\n  - nested\n- b\n\nWith `code`, **bold *nested* here**, a_b_c and 2 * 3.",
  "> quote line\n> more\n\n## Heading\nText right after.\n\n```\nno lang\n```\nAfter",
  "Use <kbd>Ctrl</kbd> and https://example.com/a?b=c, ok.\n\n1) one\n2) two\n\nA &amp; B.",
  "Para one\nline two\n\n    indented code\n\n    more code\n\n- [ ] task\n- [x] done\n\n***",
  "| a |\n|:-:|\n| x |\nnext row\n\nTitle\n=====\n\nLast ~~del~~ word",
].join("\n\n");

Deno.test("terminalMarkdown() styles bold, italics, inline code, headings and links", () => {
  const out = render("# Title\n\nSome **bold**, *it* and `x:y`; see [docs](https://a.b/c).");
  assert.equal(
    out,
    `${ESC}[1m${ESC}[4mTitle${ESC}[24m${ESC}[22m\n\n` +
      `Some ${ESC}[1mbold${ESC}[22m, ${ESC}[3mit${ESC}[23m and ${ESC}[36mx:y${ESC}[39m; ` +
      `see docs (${ESC}[4mhttps://a.b/c${ESC}[24m).\n\n`,
  );
});

Deno.test("terminalMarkdown() highlights a fenced block by its language, without the fences", () => {
  const out = render("```python\ndef f():\n    return 1\n```\n");
  assert.equal(
    out,
    `    ${ESC}[35mdef${ESC}[39m ${ESC}[34mf${ESC}[39m():\n` +
      `        ${ESC}[35mreturn${ESC}[39m ${ESC}[33m1${ESC}[39m\n\n`,
  );
  assert.equal(render("```nosuchlanguage\na = 1\n```\n"), "    a = 1\n\n", "unknown: plain");
});

Deno.test("terminalMarkdown() draws a table and numbers a list", () => {
  assert.equal(
    render("| a | b |\n|---|---|\n| 1 | 2 |\n"),
    "┌───┬───┐\n│ a │ b │\n├───┼───┤\n│ 1 │ 2 │\n└───┴───┘\n\n",
  );
  assert.equal(render("1. one\n2. two\n"), "  1. one\n  2. two\n\n");
  assert.equal(render("- `a` **b**\n"), `  * ${ESC}[36ma${ESC}[39m ${ESC}[1mb${ESC}[22m\n\n`);
  assert.equal(render("- [x] done\n").match(/\[X\]/g)?.length, 1, "one box per task");
});

Deno.test("terminalMarkdown() keeps escape sequences and character references inert", () => {
  const out = render(
    "a \\u{1b}[2J **b** &#27;]52;c;eA==&#7; &#x9b;2J &#x202e;x [l](&#27;[31m) `&#27;`\n",
  );
  assert.deepEqual(controlsBesideStyling(out), []);
  assert.ok(!out.includes(`${ESC}[31m`), out);
  assert.ok(!out.includes("\u202e"), out);
  assert.match(out, /\\u\{1b\}\]52;c;eA==\\u\{7\} \\u\{9b\}2J \\u\{202e\}x/);
});

Deno.test("MarkdownStream writes what rendering the whole text writes, however it is cut", () => {
  for (const text of [ANSWER, TRICKY]) {
    const whole = render(text).replace(/\n+$/, "");
    for (const size of [1, 2, 3, 5, 8, 13, 40, text.length]) {
      const { pushed, ended } = stream(pieces(text, size));
      assert.equal(pushed.join("") + ended, whole, `pieces of ${size}`);
    }
    for (let at = 1; at < text.length; at += 7) {
      const { pushed, ended } = stream([text.slice(0, at), text.slice(at)]);
      assert.equal(pushed.join("") + ended, whole, `cut at ${at}`);
    }
  }
});

Deno.test("MarkdownStream writes a fenced block only once its closing fence has come", () => {
  const { pushed, ended } = stream([
    "Code:\n\n```ts\nconst a",
    " = 1;\n",
    "```",
    "\n",
    "After.",
  ]);
  assert.equal(pushed[0], "Code:", "the paragraph before it, at once");
  assert.deepEqual(pushed.slice(1, 3), ["", ""], "nothing of the block while it is open");
  assert.equal(pushed[3], `\n\n    ${ESC}[35mconst${ESC}[39m a = ${ESC}[33m1${ESC}[39m;`);
  assert.ok(!pushed[3].includes("```"));
  assert.equal(pushed[4], "");
  assert.equal(ended, "\n\nAfter.");
});

Deno.test("MarkdownStream writes a table once a blank line ends it, and its rows only then", () => {
  const { pushed, ended } = stream(["| a | b |\n", "|---|---|\n", "| 1 | 2 |\n", "\n", "Next"]);
  assert.deepEqual(pushed.slice(0, 3), ["", "", ""], "no row before the table is known");
  assert.equal(pushed[3], "┌───┬───┐\n│ a │ b │\n├───┼───┤\n│ 1 │ 2 │\n└───┴───┘");
  assert.equal(pushed[4], "");
  assert.equal(ended, "\n\nNext");
});

Deno.test("MarkdownStream holds a list until the next block, so its numbers run on", () => {
  const { pushed, ended } = stream(["1. one\n\n", "2. two\n\n", "Done.\n"]);
  assert.deepEqual(pushed.slice(0, 2), ["", ""], "a blank line does not end a list");
  assert.equal(pushed[2], "  1. one\n  2. two");
  assert.equal(ended, "\n\nDone.");
});

Deno.test("MarkdownStream streams a paragraph word by word, up to markers still open", () => {
  const { pushed, ended } = stream(["Some words ", "and **bo", "ld** text ", "more"]);
  assert.deepEqual(pushed, ["Some words ", "and ", `${ESC}[1mbold${ESC}[22m text `, ""]);
  assert.equal(ended, "more");
});

Deno.test("MarkdownStream shows a text's escape sequences inert, split across pieces", () => {
  const { pushed, ended } = stream(["Done.\x1b", "]52;c;ZXZpbA==\x07 \x9b", "2J ok"]);
  const out = pushed.join("") + ended;
  assert.equal(out, "Done.\\u{1b}]52;c;ZXZpbA==\\u{7} \\u{9b}2J ok");
});

Deno.test("closedCut() stops before open code spans, emphasis, links and table rows", () => {
  assert.equal(closedCut("plain words here"), "plain words ".length);
  assert.equal(closedCut("a `b c` d `e f"), "a `b c` d ".length);
  assert.equal(closedCut("a **b c"), "a ".length);
  assert.equal(closedCut("snake_case words _em"), "snake_case words ".length);
  assert.equal(closedCut("see [the docs](http://x y"), "see ".length);
  assert.equal(closedCut("one two\nthree | four"), "one two\n".length);
});
