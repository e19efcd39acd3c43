import assert from "node:assert/strict";
import { fileGlobMatcher, nameGlobRegExp } from "./glob_match.ts";

Deno.test("fileGlobMatcher() follows gitignore glob rules", () => {
  const m = (g: string, p: string) => fileGlobMatcher(g)(p);
  assert.ok(m("*.ts", "a/b/c.ts"));
  assert.ok(m("*.ts", ".hidden.ts"));
  assert.ok(!m("src/*.ts", "src/a/b.ts"));
  assert.ok(m("src/**/*.ts", "src/b.ts"));
  assert.ok(m("/src/*.ts", "src/b.ts"));
  assert.ok(!m("/b.ts", "src/b.ts"));
  assert.ok(!m("*.ts", "a.tsx"));
  assert.ok(m("!*.ts", "a.js"));
  assert.ok(!m("!*.ts", "a.ts"));
  assert.ok(m("[!a]*.ts", "b.ts") && !m("[!a]*.ts", "a.ts"));
  assert.ok(m("a?c", "x/abc") && !m("a?c", "a/c"));
});

Deno.test("fileGlobMatcher() expands nested braces and matches a trailing / only on folders", () => {
  const braces = fileGlobMatcher("a{b,c{d,e}}f{1,2}");
  for (const p of ["abf1", "abf2", "acdf1", "acdf2", "acef1", "x/acef2"]) assert.ok(braces(p), p);
  for (const p of ["acf1", "abf3", "a{b,c}f1"]) assert.ok(!braces(p), p);
  const folders = fileGlobMatcher("node_modules/");
  assert.ok(folders("node_modules/") && folders("x/node_modules/"));
  assert.ok(!folders("node_modules"), "a file named like the folder");
});

Deno.test("nameGlobRegExp() lets * span / and keeps every other character literal", () => {
  const m = (g: string, t: string) => nameGlobRegExp(g).test(t);
  assert.ok(m("claude-*", "Claude-Sonnet-4"));
  assert.ok(m("*/claude-*", "openrouter/anthropic/claude-3"));
  assert.ok(!m("*/claude-*", "claude-3"));
  assert.ok(m("*api.anthropic.com*", "https://api.anthropic.com/v1"));
  assert.ok(!m("gpt-4.1", "gpt-4x1"));
  assert.ok(m("(a|b)+{c}", "(A|B)+{C}") && !m("(a|b)", "a"));
  assert.ok(m("!x", "!x"));
  assert.ok(!m("*", ""));
});
