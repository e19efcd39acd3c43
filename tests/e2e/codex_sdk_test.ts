/**
 * The real Codex SDK (`@openai/codex-sdk`, pinned in deno.json) driving our binary through
 * `codexPathOverride`, with the scripted provider behind it: what an SDK app sees must be what
 * Codex gives it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Codex, type CodexOptions, type ThreadItem, type ThreadOptions } from "@openai/codex-sdk";
import { type ScriptTurn, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, LAUNCHER } from "./_harness_env.ts";
import { assertNoProcesses, serversToml, testServer } from "../mcp/_servers.ts";
import { until } from "./_poll.ts";
import { need } from "../../sandbox/_test_requires.ts";

/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  ),
  (c) => c.charCodeAt(0),
);

/** What a test changes about the SDK client. */
interface FixtureOptions {
  launcher?: string;
  /** CodexOptions beyond the binary and the environment, given the fake's base URL. */
  codex?: (baseUrl: string) => Omit<CodexOptions, "codexPathOverride" | "env">;
  /** The base URL in config.toml; the fake provider's unless given. */
  configBaseUrl?: string;
  /** Leave FAKE_API_KEY (the config's env_key) unset. */
  noConfigKey?: boolean;
  /** More of config.toml (top-level keys and tables). */
  config?: string;
}

/** A git repository, the scripted provider (Responses wire) and an SDK client for our binary. */
async function sdkFixture(turns: ScriptTurn[], opts: FixtureOptions = {}) {
  const repo = await fixtureRepo("habits");
  const fake = await startFakeProvider(turns);
  const home = await fakeHome(opts.configBaseUrl ?? fake.baseUrl, "responses", opts.config);
  const env: Record<string, string> = {
    ...Deno.env.toObject(),
    OPENINTERPRETER_HOME: home,
    FAKE_API_KEY: "test-key",
    NO_COLOR: "1",
  };
  if (opts.noConfigKey) delete env.FAKE_API_KEY;
  // What an SDK app sets itself must not leak in from the environment the tests run in.
  delete env.OPENAI_BASE_URL;
  delete env.CODEX_API_KEY;
  const codex = new Codex({
    ...opts.codex?.(fake.baseUrl),
    codexPathOverride: opts.launcher ?? LAUNCHER,
    env,
  });
  const thread: ThreadOptions = { workingDirectory: repo, skipGitRepoCheck: true };
  return {
    repo,
    fake,
    codex,
    thread,
    async [Symbol.asyncDispose]() {
      await fake.close();
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(home, { recursive: true });
    },
  };
}

/** The text of a Responses request body, to look for what was sent. */
function bodyText(fake: { requests: Array<{ body: unknown }> }, index: number): string {
  return JSON.stringify(fake.requests[index]?.body ?? null);
}

Deno.test("Codex SDK: run() gets SDK-kind items and the answer; resumeThread(id) sends the history again", async () => {
  await using f = await sdkFixture([
    {
      expect: { user_contains: "say hi" },
      reply: { tool_calls: [{ name: "exec_command", args: { cmd: "echo hi" } }] },
    },
    { expect: { last_tool_result_contains: "hi" }, reply: { text: "Said hi." } },
    { expect: { user_contains: "and again" }, reply: { text: "Again." } },
  ]);
  const thread = f.codex.startThread(f.thread);
  const first = await thread.run("say hi");
  assert.equal(first.finalResponse, "Said hi.");
  assert.match(thread.id ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
  const command = first.items.find((i) => i.type === "command_execution");
  assert.deepEqual(command && { ...command, id: "" }, {
    id: "",
    type: "command_execution",
    command: "echo hi",
    aggregated_output: "hi\n",
    exit_code: 0,
    status: "completed",
  });
  assert.deepEqual(first.items.at(-1), { id: "item_1", type: "agent_message", text: "Said hi." });
  assert.ok(first.usage && first.usage.input_tokens > 0 && first.usage.output_tokens > 0);

  const resumed = f.codex.resumeThread(thread.id!, f.thread);
  const second = await resumed.run("and again");
  assert.equal(second.finalResponse, "Again.");
  assert.equal(resumed.id, thread.id, "thread.started carries the same id on resume");
  const history = bodyText(f.fake, 2);
  assert.match(history, /say hi/);
  assert.match(history, /Said hi\./);
  assert.ok(second.usage!.input_tokens > first.usage!.input_tokens, "usage is the thread's total");
  assert.deepEqual(f.fake.failures, []);
});

Deno.test("Codex SDK: runStreamed() yields Codex's event order", async () => {
  await using f = await sdkFixture([
    {
      reply: {
        thinking: "Plan first.",
        tool_calls: [
          { name: "update_plan", args: { plan: [{ step: "Count", status: "in_progress" }] } },
          { name: "exec_command", args: { cmd: "ls" } },
        ],
      },
    },
    { reply: { text: "Two files." } },
  ]);
  const { events } = await f.codex.startThread(f.thread).runStreamed("count the files");
  const seen: string[] = [];
  for await (const event of events) {
    seen.push("item" in event ? `${event.type} ${event.item.type}` : event.type);
  }
  assert.deepEqual(seen, [
    "thread.started",
    "turn.started",
    "item.completed reasoning",
    "item.started todo_list",
    "item.started command_execution",
    "item.completed command_execution",
    "item.completed agent_message",
    "item.completed todo_list",
    "turn.completed",
  ]);
});

Deno.test("Codex SDK: an MCP tool call is an mcp_tool_call item, started then completed or failed", async () => {
  const marker = `oi-sdk-mcp-${crypto.randomUUID().slice(0, 8)}`;
  await using f = await sdkFixture([
    {
      reply: {
        tool_calls: [
          { id: "c1", name: "mcp__tools__echo", args: { text: "ping" } },
          { id: "c2", name: "mcp__tools__refuse", args: { text: "no" } },
        ],
      },
    },
    { expect: { last_tool_result_contains: "refused: no" }, reply: { text: "Echoed." } },
  ], { config: serversToml({ tools: testServer("echo", marker) }) });
  const { events } = await f.codex.startThread(f.thread).runStreamed("echo ping");
  const items: Array<{ type: string; item: ThreadItem }> = [];
  for await (const event of events) {
    if ("item" in event && event.item.type === "mcp_tool_call") items.push(event);
  }
  /** The started and completed events of the call of `tool`, with its id. */
  const callOf = (tool: string) => {
    const seen = items.filter((e) => e.item.type === "mcp_tool_call" && e.item.tool === tool);
    const id = seen[0]?.item.id ?? "";
    const started = {
      id,
      type: "mcp_tool_call",
      server: "tools",
      tool,
      arguments: { text: tool === "echo" ? "ping" : "no" },
      result: null,
      error: null,
      status: "in_progress",
    };
    return { seen, started };
  };
  const echo = callOf("echo");
  assert.deepEqual(echo.seen, [
    { type: "item.started", item: echo.started },
    {
      type: "item.completed",
      item: {
        ...echo.started,
        result: {
          content: [{ type: "text", text: "echo: ping" }],
          structured_content: { echoed: "ping" },
        },
        status: "completed",
      },
    },
  ]);
  const refuse = callOf("refuse");
  assert.deepEqual(refuse.seen, [
    { type: "item.started", item: refuse.started },
    {
      type: "item.completed",
      item: { ...refuse.started, error: { message: "refused: no" }, status: "failed" },
    },
  ]);
  assert.equal(items.length, 4);
  assert.notEqual(echo.started.id, refuse.started.id);
  assert.deepEqual(f.fake.failures, []);
  await assertNoProcesses(marker);
});

Deno.test("Codex SDK: outputSchema and an image reach the model; a mismatch gets one correction", async () => {
  const schema = {
    type: "object",
    properties: { colour: { type: "string" } },
    required: ["colour"],
    additionalProperties: false,
  };
  await using f = await sdkFixture([
    { reply: { text: '{"colour": 7}' } },
    { expect: { user_contains: "colour must be string" }, reply: { text: '{"colour":"red"}' } },
  ]);
  const image = join(f.repo, "dot.png");
  await Deno.writeFile(image, PNG);
  const result = await f.codex.startThread(f.thread).run(
    [{ type: "text", text: "what colour is it?" }, { type: "local_image", path: image }],
    { outputSchema: schema },
  );
  assert.deepEqual(JSON.parse(result.finalResponse), { colour: "red" });
  const body = f.fake.requests[0].body as { text?: { format?: unknown } };
  assert.deepEqual(body.text?.format, {
    type: "json_schema",
    name: "codex_output_schema",
    strict: true,
    schema,
  });
  assert.match(
    bodyText(f.fake, 0),
    /"type":"input_image","image_url":"data:image\/png;base64,iVBOR/,
  );
  assert.deepEqual(f.fake.failures, []);
});

Deno.test("Codex SDK: an answer that still misses the schema fails the turn naming why", async () => {
  await using f = await sdkFixture([
    { reply: { text: "red" } },
    { reply: { text: "it is red" } },
  ]);
  await assert.rejects(
    f.codex.startThread(f.thread).run("colour?", { outputSchema: { type: "object" } }),
    /The final answer does not match the output schema: the answer is not JSON/,
  );
});

/** True while `pid` is a live process (a zombie counts as gone). */
async function alive(pid: number): Promise<boolean> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
  return stat !== "" && !/^\d+ \(.*\) Z/.test(stat);
}

Deno.test({
  name: "Codex SDK: aborting a run ends our process and the command it runs",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "oi-sdk-launcher-" });
    const launcher = join(dir, "interpreter");
    await Deno.writeTextFile(
      launcher,
      `#!/bin/sh\necho $$ > "${dir}/agent.pid"\nexec "${LAUNCHER}" "$@"\n`,
    );
    await Deno.chmod(launcher, 0o755);
    try {
      await using f = await sdkFixture([{
        reply: {
          tool_calls: [{
            name: "exec_command",
            args: { cmd: "echo $$ > command.pid; exec sleep 60" },
          }],
        },
      }], { launcher });
      const readPid = (file: string) =>
        Deno.readTextFile(file).then((t) => Number(t.trim()) || 0, () => 0);
      const controller = new AbortController();
      const run = f.codex.startThread({ ...f.thread, sandboxMode: "danger-full-access" })
        .run("wait", { signal: controller.signal });
      const commandPid = join(f.repo, "command.pid");
      await until("the command to start", async () => (await readPid(commandPid)) > 0);
      const agent = await readPid(join(dir, "agent.pid"));
      const command = await readPid(commandPid);
      assert.ok(await alive(agent) && await alive(command));
      controller.abort();
      await assert.rejects(run, (error: Error) => error.name === "AbortError");
      await until("our process to exit", async () => !(await alive(agent)));
      await until("the command to be killed", async () => !(await alive(command)));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

const BWRAP = await need("bwrap");

Deno.test({
  name: "Codex SDK: every option it sends is accepted: base URL and key, config, thread options" +
    BWRAP.note,
  ignore: BWRAP.ignore,
  async fn() {
    const extra = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi-sdk-extra-" }));
    const out = join(extra, "out.txt");
    try {
      await using f = await sdkFixture([
        { reply: { tool_calls: [{ name: "exec_command", args: { cmd: `echo sdk > ${out}` } }] } },
        {
          expect: { last_tool_result_contains: "exited with code 0" },
          reply: { text: "Wrote it." },
        },
      ], {
        // Only the SDK's base URL and key reach the fake: the config's point nowhere.
        configBaseUrl: "http://127.0.0.1:9/v1",
        noConfigKey: true,
        codex: (baseUrl) => ({
          baseUrl,
          apiKey: "sdk-key",
          config: { model_context_window: 64000, web_search: "cached", features: { x: true } },
        }),
      });
      const thread = f.codex.startThread({
        ...f.thread,
        model: "gpt-5.5",
        threadSource: "tests",
        sandboxMode: "workspace-write",
        additionalDirectories: [extra],
        modelReasoningEffort: "high",
        networkAccessEnabled: false,
        webSearchMode: "disabled",
        approvalPolicy: "never",
      });
      const result = await thread.run("write the file", { cyberAccessProgram: "standard" });
      assert.equal(result.finalResponse, "Wrote it.");
      assert.equal(await Deno.readTextFile(out), "sdk\n", "--add-dir is a writable root");
      const request = f.fake.requests[0];
      assert.equal(request.headers.authorization, "Bearer sdk-key");
      const body = request.body as {
        model: string;
        reasoning?: { effort?: string };
        tools?: { type?: string }[];
      };
      assert.equal(body.model, "gpt-5.5");
      assert.equal(body.reasoning?.effort, "high");
      const warnings = result.items.flatMap((i) => i.type === "error" ? [i.message] : []);
      // web_search is ours: no warning, and the SDK's "disabled" (its last --config) wins.
      assert.ok(!warnings.some((w) => w.includes('"web_search"')), warnings.join("\n"));
      assert.ok(!body.tools?.some((t) => t.type === "web_search"), "no hosted web_search");
      assert.ok(warnings.some((w) => w.includes('"features"')), warnings.join("\n"));
      assert.deepEqual(f.fake.failures, []);
    } finally {
      await Deno.remove(extra, { recursive: true });
    }
  },
});
