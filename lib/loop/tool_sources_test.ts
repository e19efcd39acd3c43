import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { ToolError } from "../errors.ts";
import { advertisedTools, toolCatalog } from "../harness/deferred.ts";
import { loadHarness } from "../harness/load.ts";
import type { Harness } from "../harness/types.ts";
import type { SourceTool, ToolSource } from "../tools/tool_source.ts";
import { tempWorkspace } from "../tools/_test_workspace.ts";
import {
  DEFAULT_SOURCE_TOOL_NAME,
  sourceImages,
  sourceToolName,
  turnTools,
} from "./tool_sources.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));
const signal = new AbortController().signal;

function tool(name: string, over: Partial<SourceTool> = {}): SourceTool {
  return {
    name,
    description: `The ${name} tool`,
    inputSchema: { type: "object", properties: {} },
    kind: "other",
    mutates: true,
    run: (input) => Promise.resolve({ text: `${name} ran with ${JSON.stringify(input)}` }),
    ...over,
  };
}

function source(id: string, tools: SourceTool[]): ToolSource {
  return { id, tools: () => Promise.resolve(tools) };
}

async function harness(id = "native", over: Partial<Harness> = {}): Promise<Harness> {
  return { ...await loadHarness(id, { builtinDir: HARNESSES }), ...over };
}

Deno.test("sourceToolName() follows the harness's template, else mcp__{source}__{tool}", async () => {
  const plain = await harness("native", { sourceToolName: undefined });
  assert.equal(DEFAULT_SOURCE_TOOL_NAME, "mcp__{source}__{tool}");
  assert.equal(sourceToolName(plain, "github", "create_issue"), "mcp__github__create_issue");
  const gemini = await harness("native", { sourceToolName: "{source}__{tool}" });
  assert.equal(sourceToolName(gemini, "github", "create_issue"), "github__create_issue");
});

Deno.test("sourceToolName() makes names every wire accepts: safe characters, 64 at most", async () => {
  const h = await harness();
  assert.equal(sourceToolName(h, "my server", "read.file/v2"), "mcp__my_server__read_file_v2");
  const long = (end: string) => sourceToolName(h, "s", `${"x".repeat(80)}${end}`);
  assert.equal(long("a").length, 64);
  assert.match(long("a"), /^mcp__s__x+_[0-9a-z]{7}$/);
  assert.notEqual(long("a"), long("b"), "names cut to length stay apart");
});

Deno.test("turnTools() adds source tools after the harness's, each sent directly by default", async () => {
  const h = await harness();
  const tools = await turnTools(h, [source("a", [tool("one")]), source("b", [tool("two")])], {
    signal,
  });
  const names = advertisedTools(tools.harness, new Map()).map((d) => d.name);
  assert.deepEqual(names.slice(-2), ["mcp__a__one", "mcp__b__two"]);
  assert.deepEqual(
    names.slice(0, -2),
    h.tools.filter((t) => !t.deferred).map((t) => t.declaration.name),
  );
  assert.equal(h.tools.length + 2, tools.harness.tools.length);
});

Deno.test("turnTools() sends both tools whose wire names collide, the later with a suffix, and warns", async () => {
  const h = await harness("native", { sourceToolName: "{tool}" });
  const broken: ToolSource = { id: "broken", tools: () => Promise.reject(new Error("down")) };
  const warnings: string[] = [];
  const sources = [
    source("a", [tool("exec_command"), tool("read.file")]),
    broken,
    source("b", [tool("read_file"), tool("fresh")]),
  ];
  const tools = await turnTools(h, sources, { signal, warn: (m) => warnings.push(m) });
  const added = tools.harness.tools.slice(h.tools.length);
  const names = added.map((t) => [t.declaration.name, t.capability]);
  assert.equal(names.length, 4, "no tool is left out");
  assert.match(names[0][0], /^exec_command_[0-9a-z]{7}$/);
  assert.deepEqual(names.slice(1).map(([, cap]) => cap), [
    "source:a/read.file",
    "source:b/read_file",
    "source:b/fresh",
  ]);
  assert.equal(names[1][0], "read_file");
  assert.match(names[2][0], /^read_file_[0-9a-z]{7}$/);
  assert.equal(names[3][0], "fresh");
  assert.deepEqual(warnings, [
    `The tool "exec_command" of "a" and the harness's tool both become "exec_command" on the ` +
    `wire; the tool "exec_command" of "a" is sent as "${names[0][0]}"`,
    `The tool "read_file" of "b" and tool "read.file" of "a" both become "read_file" on the ` +
    `wire; the tool "read_file" of "b" is sent as "${names[2][0]}"`,
  ]);
  const shell = tools.resolve({ name: "exec_command", args: { cmd: "ls" } });
  assert.equal(shell.capability.id, "shell.run", "the harness's own tool keeps its name");
  const second = tools.resolve({ name: names[2][0], args: {} });
  assert.equal(second.capability.id, "source:b/read_file", "the suffixed name reaches its tool");
  const again = await turnTools(h, sources, { signal });
  assert.deepEqual(
    again.harness.tools.slice(h.tools.length).map((t) => t.declaration.name),
    names.map(([name]) => name),
    "the same names every turn",
  );
});

Deno.test("turnTools() keeps a suffixed name within 64 characters and apart from the rest", async () => {
  const h = await harness();
  const long = "x".repeat(80);
  const tools = await turnTools(h, [source("s", [tool(long), tool(long), tool(long)])], {
    signal,
  });
  const names = tools.harness.tools.slice(h.tools.length).map((t) => t.declaration.name);
  assert.equal(new Set(names).size, 3);
  assert.ok(names.every((n) => n.length <= 64), names.join(", "));
});

Deno.test("turnTools() defers source tools past the threshold where the harness has a search", async () => {
  const many = Array.from({ length: 20 }, (_, i) => tool(`tool_${i}`));
  const claude = await harness("claude-code");
  const deferred = await turnTools(claude, [source("big", many)], {
    placement: { deferAboveTokens: 100 },
    signal,
  });
  const sent = advertisedTools(deferred.harness, new Map()).map((d) => d.name);
  assert.ok(!sent.some((n) => n.startsWith("mcp__big__")), "deferred: not sent");
  const catalog = toolCatalog(deferred.harness, new Map(), {
    guard: allow,
    resolve: deferred.resolve,
  });
  assert.ok(catalog.list().some((e) => e.name === "mcp__big__tool_3"), "but searchable");
  const small = await turnTools(claude, [source("big", many)], {
    placement: { deferAboveTokens: 100_000 },
    signal,
  });
  assert.ok(advertisedTools(small.harness, new Map()).some((d) => d.name === "mcp__big__tool_3"));
  const noSearch = await turnTools(await harness("native"), [source("big", many)], {
    placement: { deferAboveTokens: 100 },
    signal,
  });
  assert.ok(
    advertisedTools(noSearch.harness, new Map()).some((d) => d.name === "mcp__big__tool_3"),
    "a harness without a tool search gets them directly",
  );
});

const allow = () => Promise.resolve({ allow: true as const });

Deno.test("a deferred source tool runs through tools.call, past the guard, with its arguments", async () => {
  await using ws = await tempWorkspace();
  const claude = await harness("claude-code");
  const tools = await turnTools(claude, [source("s", [tool("echo", { mutates: false })])], {
    placement: { deferAboveTokens: 0 },
    signal,
  });
  const guarded: unknown[] = [];
  const catalog = toolCatalog(tools.harness, ws.ctx.state, {
    resolve: tools.resolve,
    guard: (_call, resolved) => {
      guarded.push(resolved);
      return Promise.resolve({ allow: true });
    },
  });
  const text = await catalog.call("mcp__s__echo", { word: "hi" }, ws.ctx);
  assert.equal(text, 'echo ran with {"word":"hi"}');
  assert.deepEqual(guarded, [{
    capability: "source:s/echo",
    input: { word: "hi" },
    mutates: false,
  }]);
});

Deno.test("a source tool's result is an error result when the tool says so", async () => {
  await using ws = await tempWorkspace();
  const failing = tool("fail", {
    run: () => Promise.resolve({ text: "no such issue", isError: true }),
  });
  const tools = await turnTools(await harness(), [source("s", [failing])], { signal });
  const resolved = tools.resolve({ name: "mcp__s__fail", args: {} });
  const output = await resolved.capability.run(resolved.input, ws.ctx);
  assert.deepEqual(output, { output: "no such issue", isError: true });
});

Deno.test("a source tool's arguments must be a JSON object", async () => {
  const tools = await turnTools(await harness(), [source("s", [tool("t")])], { signal });
  assert.deepEqual(
    tools.resolve({ name: "mcp__s__t", args: undefined, rawArgs: '{"a":1}' }).input,
    {
      a: 1,
    },
  );
  for (const args of [[1, 2], "not json", 3]) {
    assert.throws(
      () => tools.resolve({ name: "mcp__s__t", args }),
      (e) => e instanceof ToolError && /Cannot run mcp__s__t: its arguments/.test(e.message),
    );
  }
});

Deno.test("turnTools() offers no source tools to a text-protocol harness", async () => {
  for (const id of ["swe-agent", "mini-swe-agent", "terminus-2"]) {
    const h = await harness(id);
    const tools = await turnTools(h, [source("s", [tool("t")])], { signal });
    assert.equal(tools.harness, h, id);
    assert.ok(!tools.harness.tools.some((t) => t.declaration.name === "mcp__s__t"), id);
  }
});

Deno.test("a source tool's images travel with its output; sourceImages() finds only those", async () => {
  await using ws = await tempWorkspace();
  const image = { mime: "image/png", base64: "iVBORw0KGgo=" };
  const shot = tool("shot", { run: () => Promise.resolve({ text: "a picture", images: [image] }) });
  const tools = await turnTools(await harness(), [source("s", [shot])], { signal });
  const resolved = tools.resolve({ name: "mcp__s__shot", args: {} });
  const output = await resolved.capability.run(resolved.input, ws.ctx);
  assert.deepEqual(output, { output: "a picture", isError: false, images: [image] });
  assert.deepEqual(sourceImages(resolved.capability.id, output), [image]);
  assert.deepEqual(sourceImages("fs.read", { images: [image] }), [], "not from a capability");
  assert.deepEqual(sourceImages(resolved.capability.id, { images: [{ mime: 1 }] }), []);
});
