import assert from "node:assert/strict";
import { makeStyle } from "../term/style.ts";
import { replTrustQuestion } from "./trust_question.ts";

const definitions = [
  { kind: "hook" as const, name: "Stop", command: "say \x1b]0;x", source: "/r/c.toml", key: "k1" },
  {
    kind: "mcp_server" as const,
    name: "docs",
    command: "npx docs",
    source: "/r/c.toml",
    key: "k2",
  },
];

Deno.test("the REPL's start-up question lists the definitions, and after a no asks no more", async () => {
  const printed: string[] = [];
  const answers = ["n", "y"];
  const asked: string[] = [];
  const ask = replTrustQuestion({
    print: (lines) => printed.push(...lines),
    line: (prompt) => {
      asked.push(prompt);
      return Promise.resolve(answers.shift() ?? null);
    },
    style: makeStyle(false),
  });
  assert.equal(await ask({ projectRoot: "/r", definitions }), false);
  assert.deepEqual(printed.slice(0, 5), [
    "The project /r defines 1 hook and 1 MCP server you have not trusted yet; trusted, they run " +
    "as your own commands, outside the sandbox:",
    "  1. hook Stop: say \\u{1b}]0;x",
    "     from /r/c.toml",
    "  2. MCP server docs: npx docs",
    "     from /r/c.toml",
  ]);
  assert.deepEqual(asked, ["Trust them? [y/N] "]);
  assert.equal(await ask({ projectRoot: "/r", definitions }), false, "not asked again");
  assert.equal(asked.length, 1);
});

Deno.test("a yes at the start-up question trusts, and the next session is asked again", async () => {
  const ask = replTrustQuestion({
    print: () => {},
    line: () => Promise.resolve("yes"),
    style: makeStyle(false),
  });
  assert.equal(await ask({ projectRoot: "/r", definitions }), true);
  assert.equal(await ask({ projectRoot: "/r", definitions: definitions.slice(1) }), true);
});
