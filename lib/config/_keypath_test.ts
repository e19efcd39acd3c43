import assert from "node:assert/strict";
import { formatTomlValue, joinKeyPath, splitKeyPath } from "./_keypath.ts";

Deno.test("splitKeyPath() reads bare, quoted and literal segments", () => {
  assert.deepEqual(splitKeyPath("model"), ["model"]);
  assert.deepEqual(splitKeyPath(" a . \"b.c\" . 'd e' "), ["a", "b.c", "d e"]);
  assert.deepEqual(splitKeyPath('projects."/x/y".trust_level'), [
    "projects",
    "/x/y",
    "trust_level",
  ]);
  assert.deepEqual(splitKeyPath('"q\\"uote"'), ['q"uote']);
  for (const bad of ["", ".", "a.", ".a", "a..b", "a b", '"open']) {
    assert.equal(splitKeyPath(bad), undefined, bad);
  }
});

Deno.test("joinKeyPath() quotes only segments that are not bare keys", () => {
  assert.equal(joinKeyPath(["projects", "/x/y", "trust_level"]), 'projects."/x/y".trust_level');
  assert.deepEqual(splitKeyPath(joinKeyPath(["a", "b.c", 'd"e'])), ["a", "b.c", 'd"e']);
});

Deno.test("formatTomlValue() renders TOML literals", () => {
  assert.equal(formatTomlValue('a"b'), '"a\\"b"');
  assert.equal(formatTomlValue(3), "3");
  assert.equal(formatTomlValue(false), "false");
  assert.equal(formatTomlValue(["a", 1]), '["a", 1]');
  assert.equal(formatTomlValue({ a: 1, "b c": "d" }), '{ a = 1, "b c" = "d" }');
  assert.equal(formatTomlValue({}), "{}");
});
