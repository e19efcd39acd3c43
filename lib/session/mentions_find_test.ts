import assert from "node:assert/strict";
import { codeRanges, findMentions, looksLikePath } from "./mentions_find.ts";

const paths = (text: string) => findMentions(text).map((m) => m.path);

Deno.test("mentions: paths after white space or at the start, trailing punctuation cut, each once", () => {
  assert.deepEqual(paths("@a.txt, see @src/ and (@lib/x.ts). Again @a.txt?"), [
    "a.txt",
    "src/",
    "lib/x.ts",
  ]);
  assert.deepEqual(paths("explain @~/todo.md please"), ["~/todo.md"]);
  assert.deepEqual(findMentions("x @b.md")[0], { token: "@b.md", path: "b.md", index: 2 });
});

Deno.test("mentions: an e-mail address and a word with @ inside are left alone", () => {
  assert.deepEqual(paths("mail bob@example.com or user@host:path"), []);
});

Deno.test("mentions: inside code spans and fenced blocks they are left alone; an unclosed tick is text", () => {
  assert.deepEqual(paths("not `@a.txt` nor ``x @b.txt`` but @c.txt"), ["c.txt"]);
  assert.deepEqual(paths("```\ncat @d.txt\n```\nthen @e.txt"), ["e.txt"]);
  assert.deepEqual(paths("it's `unclosed @f.txt"), ["f.txt"]);
  assert.deepEqual(codeRanges("a `b` c"), [[2, 5]]);
});

Deno.test("mentions: a handle is told apart from a path", () => {
  assert.equal(looksLikePath("alice"), false);
  assert.equal(looksLikePath("notes.txt"), true);
  assert.equal(looksLikePath("src/"), true);
});
