import assert from "node:assert/strict";
import { tempWorkspace } from "../_test_workspace.ts";
import type { NestedTools, ToolContext } from "../types.ts";
import { cellEnv, execSource, jsName, truncated, waitCell } from "./cells.ts";
import { parseExecSource } from "./pragma.ts";

/** Nested tools that answer `echo` with its input and record when each call ran. */
function fakeNested(log: Array<{ name: string; input: unknown; at: number }>): NestedTools {
  return {
    names: () => ["echo", "mcp__srv__get-thing"],
    call(name, input) {
      log.push({ name, input, at: Date.now() });
      if (name === "echo") return Promise.resolve({ value: { echoed: input }, isError: false });
      return Promise.resolve({ value: "no such thing", isError: true });
    },
  };
}

async function workspace() {
  const ws = await tempWorkspace();
  const log: Array<{ name: string; input: unknown; at: number }> = [];
  const ctx: ToolContext = { ...ws.ctx, nestedTools: fakeNested(log) };
  return { ws, ctx, log, [Symbol.asyncDispose]: () => ws[Symbol.asyncDispose]() };
}

Deno.test("exec runs a cell to completion: each text() is one part, nested results are values", async () => {
  await using w = await workspace();
  const out = await execSource(
    'text("a");\nconst r = await tools.echo({x: 1});\ntext(r);\ntext(ALL_TOOLS.map((t) => t.name).join());',
    w.ctx,
  );
  assert.equal(out.completed, true);
  assert.equal(out.runningCellId, null);
  assert.deepEqual(out.items, ["a", '{"echoed":{"x":1}}', "echo,mcp__srv__get_thing"]);
  assert.match(out.wallTimeS, /^\d+\.\d$/);
});

Deno.test("a thrown error fails the cell with its text; a failed nested call rejects", async () => {
  await using w = await workspace();
  const out = await execSource(
    'try { await tools.mcp__srv__get_thing({}); } catch (e) { text("caught " + e.message); }\n' +
      'throw new TypeError("boom");',
    w.ctx,
  );
  assert.equal(out.failed, true);
  assert.deepEqual(out.items, ["caught no such thing"]);
  assert.equal(out.error, "TypeError: boom");
});

Deno.test("a cell that outlives yield_time_ms yields its output so far; wait resumes it to the end", async () => {
  await using w = await workspace();
  const first = await execSource(
    '// @exec: {"yield_time_ms": 200}\ntext("before");\n' +
      'await new Promise((r) => setTimeout(r, 1500));\ntext("after");',
    w.ctx,
  );
  assert.equal(first.runningCellId, "1");
  assert.deepEqual(first.items, ["before"]);
  const second = await waitCell({ cellId: "1", yieldTimeMs: 10_000 }, w.ctx);
  assert.equal(second.completed, true);
  assert.deepEqual(second.items, ["after"], "only the output since the last result");
  const gone = await waitCell({ cellId: "1" }, w.ctx);
  assert.equal(gone.failed, true);
  assert.equal(gone.error, "exec cell 1 not found");
});

Deno.test("yield_control() returns at once while the cell keeps running; terminate ends it", async () => {
  await using w = await workspace();
  const first = await execSource(
    'text("started");\nyield_control();\nawait new Promise(() => {});',
    w.ctx,
  );
  assert.equal(first.runningCellId, "1");
  assert.deepEqual(first.items, ["started"]);
  const stopped = await waitCell({ cellId: "1", terminate: true }, w.ctx);
  assert.equal(stopped.terminated, true);
  assert.equal((await waitCell({ cellId: "1" }, w.ctx)).error, "exec cell 1 not found");
});

Deno.test("a detached cell's nested calls wait for the next wait to run them", async () => {
  await using w = await workspace();
  const started = Date.now();
  const first = await execSource(
    '// @exec: {"yield_time_ms": 100}\nawait new Promise((r) => setTimeout(r, 300));\n' +
      'text(JSON.stringify(await tools.echo("late")));',
    w.ctx,
  );
  assert.equal(first.runningCellId, "1");
  // Poll (no fixed sleep): the call is made ~300 ms in, while no exec or wait is attached.
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline && Date.now() - started < 800) {
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(w.log.length, 0, "no nested call ran while the cell was detached");
  const waitedAt = Date.now();
  const done = await waitCell({ cellId: "1" }, w.ctx);
  assert.equal(done.completed, true);
  assert.deepEqual(done.items, ['{"echoed":"late"}']);
  assert.ok(w.log[0].at >= waitedAt);
});

Deno.test("store() keeps values for later cells of the session; load() reads them back", async () => {
  await using w = await workspace();
  await execSource('store("n", {count: 2});', w.ctx);
  const out = await execSource('text(load("n").count + 1);\ntext(String(load("missing")));', w.ctx);
  assert.deepEqual(out.items, ["3", "undefined"]);
});

Deno.test("an interrupted exec ends its cell", async () => {
  await using w = await workspace();
  const abort = new AbortController();
  const running = execSource('text("x");\nawait new Promise(() => {});', {
    ...w.ctx,
    signal: abort.signal,
  });
  setTimeout(() => abort.abort(), 200);
  const out = await running;
  assert.equal(out.terminated, true);
  assert.equal((await waitCell({ cellId: "1" }, w.ctx)).error, "exec cell 1 not found");
});

Deno.test("the pragma line is read as Codex reads it, and bad pragmas name the fix", () => {
  assert.deepEqual(parseExecSource('// @exec: {"yield_time_ms": 5, "max_output_tokens": 9}\nx()'), {
    code: "x()",
    yieldTimeMs: 5,
    maxOutputTokens: 9,
  });
  assert.deepEqual(parseExecSource("x()"), { code: "x()" });
  assert.throws(() => parseExecSource("  "), /needs JavaScript source/);
  assert.throws(() => parseExecSource("// @exec: {}"), /no source after it/);
  assert.throws(() => parseExecSource("// @exec: {nope}\nx()"), /not JSON/);
  assert.throws(() => parseExecSource('// @exec: {"other": 1}\nx()'), /no field "other"/);
  assert.throws(() => parseExecSource('// @exec: {"yield_time_ms": -1}\nx()'), /whole number/);
});

Deno.test("output is cut to max tokens; tool names become identifiers; secrets never reach a cell", () => {
  assert.deepEqual(truncated(["abcd", "efghij"], 2), [
    "abcd",
    "efgh\n[… 2 characters of output left out]",
  ]);
  assert.equal(jsName("mcp__a-b__c.d"), "mcp__a_b__c_d");
  assert.equal(jsName("9x"), "_9x");
  const env = cellEnv({ PATH: "/bin", OPENAI_API_KEY: "k", GH_TOKEN: "t", MY_SECRET: "s" });
  assert.deepEqual(Object.keys(env).sort(), ["DENO_NO_UPDATE_CHECK", "NO_COLOR", "PATH"]);
});

Deno.test("a cell that writes an endless line to its own stdout fails instead of filling memory", async () => {
  await using w = await workspace();
  const out = await execSource(
    'const line = new TextEncoder().encode("x".repeat(1 << 20));\n' +
      "for (let i = 0; i < 64; i++) await Deno.stdout.write(line);\n" +
      'text("unreached");',
    w.ctx,
  );
  assert.equal(out.failed, true);
  assert.match(String(out.error), /a line of over 8388608 characters/);
  assert.deepEqual(out.items, []);
});

Deno.test("a cell's own short stdout lines that are not messages are ignored", async () => {
  await using w = await workspace();
  const out = await execSource(
    'await Deno.stdout.write(new TextEncoder().encode("not json\\n"));\ntext("ok");',
    w.ctx,
  );
  assert.equal(out.completed, true);
  assert.deepEqual(out.items, ["ok"]);
});
