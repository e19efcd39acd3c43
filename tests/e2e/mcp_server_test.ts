/**
 * `interpreter mcp-server` as a real process, driven by the official MCP SDK client over stdio,
 * the model being the scripted fake provider: the tools' declarations, a `codex` task on the
 * habit tracker with its `codex/event` progress, `codex-reply` with the history, approvals by
 * elicitation answered both ways, a session that cannot start, and two calls at once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import * as z from "zod";
import { findSessionFile } from "../../lib/store/mod.ts";
import { loadScript, startFakeProvider } from "../fake_provider/server.ts";
import { HABITS_FINAL } from "./_habits.ts";
import { fakeHome, fixtureRepo, LAUNCHER, REPO, tempDirs } from "./_harness_env.ts";
import { alive, until } from "./_poll.ts";
import { stepper } from "./_steps.ts";

type Params = Record<string, unknown>;
type ToolResult = {
  content: Array<{ type: string; text: string }>;
  structuredContent?: { threadId: string; content: string };
  isError?: boolean;
};

const codexEventSchema = z.object({ method: z.literal("codex/event"), params: z.looseObject({}) });
const elicitSchema = z.object({
  method: z.literal("elicitation/create"),
  params: z.looseObject({}),
});

/** What each tool's input schema must be, descriptions aside (the Codex MCP server's). */
const CODEX_INPUT = {
  type: "object",
  properties: {
    "approval-policy": { type: "string", enum: ["untrusted", "on-failure", "on-request", "never"] },
    "base-instructions": { type: "string" },
    "compact-prompt": { type: "string" },
    config: { type: "object", additionalProperties: true },
    cwd: { type: "string" },
    "developer-instructions": { type: "string" },
    model: { type: "string" },
    profile: { type: "string" },
    prompt: { type: "string" },
    sandbox: { type: "string", enum: ["read-only", "workspace-write", "danger-full-access"] },
  },
  required: ["prompt"],
};
const REPLY_INPUT = {
  type: "object",
  properties: {
    conversationId: { type: "string" },
    prompt: { type: "string" },
    threadId: { type: "string" },
  },
  required: ["prompt"],
};
const OUTPUT = {
  type: "object",
  properties: { threadId: { type: "string" }, content: { type: "string" } },
  required: ["threadId", "content"],
};

function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).filter(([k]) => k !== "description")
      .map(([k, v]) => [k, withoutDescriptions(v)]),
  );
}

const touch = (file: string) => ({
  reply: { tool_calls: [{ name: "exec_command", args: { cmd: `touch ${file}` } }] },
});

Deno.test("mcp-server runs codex and codex-reply for the SDK client, with events and approvals", async (t) => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  // The habit tracker's fix in three model turns (the native harness's tools), without pytest.
  const [look, , patch] = await loadScript(
    join(REPO, "tests", "fixtures", "scripts", "habits_native.jsonl"),
  );
  await using model = startFakeProvider([
    { reply: { ...look.reply, tool_calls: look.reply!.tool_calls!.slice(0, 1) } },
    { expect: { last_tool_result_contains: "today.day - previous.day" }, reply: patch.reply },
    { expect: { last_tool_result_contains: "habits.py" }, reply: { text: HABITS_FINAL } },
    { expect: { user_contains: "Which file" }, reply: { text: "habits.py, only." } },
    { expect: { user_contains: "make approved.txt" }, ...touch("approved.txt") },
    { expect: { last_tool_result_contains: "" }, reply: { text: "Made it." } },
    { expect: { user_contains: "make denied.txt" }, ...touch("denied.txt") },
    { expect: { last_tool_result_contains: "refused" }, reply: { text: "I was not allowed." } },
    { expect: { user_contains: "make slow.txt" }, ...touch("slow.txt") },
    { reply: { text: "Slow one done." } },
    { expect: { user_contains: "make cancelled.txt" }, ...touch("cancelled.txt") },
    { expect: { user_contains: "Still there?" }, reply: { text: "Yes." } },
  ]);
  await using other = startFakeProvider([{ reply: { text: "Quick answer." } }]);
  const home = await dirs.add(fakeHome(model.baseUrl, "chat"));

  const transport = new StdioClientTransport({
    command: LAUNCHER,
    args: ["mcp-server", "--harness", "native"],
    cwd: repo,
    env: { OPENINTERPRETER_HOME: home, FAKE_API_KEY: "test-key", NO_COLOR: "1" },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "mcp-server-test", version: "1.0.0" }, {
    capabilities: { elicitation: {} },
  });
  const events: Params[] = [];
  client.setNotificationHandler(codexEventSchema, (n) => {
    events.push(n.params);
  });
  /** Answers each elicitation; the test sets it per step. */
  let answer: (params: Params) => Promise<Params> = () => Promise.resolve({ action: "decline" });
  const asked: Params[] = [];
  client.setRequestHandler(elicitSchema, (request) => {
    asked.push(request.params);
    return answer(request.params);
  });
  await client.connect(transport);
  const pid = transport.pid!;
  const call = async (name: string, args: Params) =>
    await client.callTool({ name, arguments: args }) as ToolResult;
  const step = stepper(t, "server stderr", () => stderr);

  try {
    await step("initialize and tools/list answer as the Codex MCP server", async () => {
      const info = client.getServerVersion()!;
      assert.equal(info.name, "codex-mcp-server");
      assert.equal(info.title, "Codex");
      assert.deepEqual(client.getServerCapabilities()?.tools, { listChanged: true });
      const { tools } = await client.listTools();
      const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
      assert.deepEqual(Object.keys(byName).sort(), ["codex", "codex-reply"]);
      assert.equal(byName.codex.title, "Codex");
      assert.equal(byName["codex-reply"].title, "Codex Reply");
      assert.deepEqual(withoutDescriptions(byName.codex.inputSchema), CODEX_INPUT);
      assert.deepEqual(withoutDescriptions(byName["codex-reply"].inputSchema), REPLY_INPUT);
      assert.deepEqual(byName.codex.outputSchema, OUTPUT);
      assert.deepEqual(byName["codex-reply"].outputSchema, OUTPUT);
    });

    let threadId = "";
    let result: ToolResult | undefined;
    const progress: Params[] = [];
    await step("codex fixes the habit tracker", async () => {
      result = await client.callTool(
        { name: "codex", arguments: { prompt: "fix the failing test" } },
        undefined,
        { onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true },
      ) as ToolResult;
      assert.equal(result.isError, undefined, result.content[0]?.text);
      const source = await Deno.readTextFile(join(repo, "habits.py"));
      assert.match(source, /\(today - previous\)\.days == 1/);
    });

    await step("its result is the final message with the thread id", () => {
      assert.deepEqual(result?.content, [{ type: "text", text: HABITS_FINAL }]);
      threadId = result!.structuredContent!.threadId;
      assert.deepEqual(result!.structuredContent, { threadId, content: HABITS_FINAL });
    });

    const types = events.map((e) => String((e.msg as Params).type));
    await step("codex/event reports each kind of step, configured first, complete last", () => {
      for (
        const type of [
          "session_configured",
          "task_started",
          "exec_command_begin",
          "exec_command_end",
          "patch_apply_begin",
          "patch_apply_end",
          "agent_message",
          "token_count",
          "task_complete",
        ]
      ) assert.ok(types.includes(type), `no ${type} event in ${types.join(", ")}`);
      assert.equal(types[0], "session_configured");
      assert.equal(types.at(-1), "task_complete");
      assert.deepEqual(events.at(-1)!.msg, {
        type: "task_complete",
        last_agent_message: HABITS_FINAL,
      });
    });

    await step("session_configured names the thread, also in _meta with the request", () => {
      const configured = events[0];
      assert.equal((configured.msg as Params).session_id, threadId);
      const meta = configured._meta as Params;
      assert.equal(meta.threadId, threadId);
      assert.equal(typeof meta.requestId, "number");
    });

    await step("exec_command_begin carries the command and its folder", () => {
      const begin = events.find((e) => (e.msg as Params).type === "exec_command_begin")!;
      assert.deepEqual((begin.msg as Params).command, ["bash", "-c", "cat habits.py"]);
      assert.equal((begin.msg as Params).cwd, repo);
    });

    await step("progress notifications follow the events during the task", () => {
      // The client drops progress that comes in after the result, so the last may be missing.
      const steps = types.filter((type) => !type.endsWith("_delta"));
      assert.ok(progress.length > steps.indexOf("patch_apply_end"), "progress during the task");
      assert.deepEqual(progress.map((p) => p.message), steps.slice(0, progress.length));
    });

    await step("codex-reply continues the thread with its history", async () => {
      const result = await call("codex-reply", { threadId, prompt: "Which file did you change?" });
      assert.deepEqual(result.structuredContent, { threadId, content: "habits.py, only." });
      const body = JSON.stringify(model.requests.at(-1)!.body);
      assert.match(body, /fix the failing test.*Fixed longest_streak.*Which file did you change/s);
    });

    await step(
      "codex-reply refuses the path of the thread's session file as its id",
      async () => {
        const file = await findSessionFile(home, threadId);
        for (const bad of [file, `../../${threadId}.jsonl`]) {
          const result = await call("codex-reply", { threadId: bad, prompt: "Which file?" });
          assert.equal(result.isError, true);
          assert.equal(
            result.content[0].text,
            `Cannot continue thread ${
              JSON.stringify(bad)
            }: it is no thread id; pass the threadId ` +
              "a codex call returned (a UUID), never a file path",
          );
        }
      },
    );

    let approved: ToolResult | undefined;
    await step("an approval answered approved by elicitation lets the command run", async () => {
      answer = () => Promise.resolve({ action: "accept", content: { decision: "approved" } });
      approved = await call("codex", {
        prompt: "make approved.txt",
        "approval-policy": "untrusted",
      });
      assert.equal(approved.content[0].text, "Made it.");
      await Deno.stat(join(repo, "approved.txt"));
    });

    await step("the approval question carries the command as Codex's does", () => {
      const params = asked.at(-1)!;
      assert.equal(params.codex_elicitation, "exec-approval");
      assert.equal(params.threadId, approved?.structuredContent?.threadId);
      assert.deepEqual(params.codex_command, ["bash", "-c", "touch approved.txt"]);
      assert.equal(params.codex_cwd, repo);
      assert.deepEqual(params.requestedSchema, { type: "object", properties: {} });
      assert.match(String(params.message), /touch approved\.txt/);
      for (const key of ["codex_mcp_tool_call_id", "codex_event_id", "codex_call_id"]) {
        assert.equal(typeof params[key], "string", key);
      }
      assert.ok(Array.isArray(params.codex_parsed_cmd));
    });

    await step("an approval answered denied keeps the command from running", async () => {
      answer = () => Promise.resolve({ action: "accept", content: { decision: "denied" } });
      const result = await call("codex", {
        prompt: "make denied.txt",
        "approval-policy": "untrusted",
      });
      assert.equal(result.content[0].text, "I was not allowed.");
      assert.equal(asked.at(-1)!.codex_elicitation, "exec-approval");
      await assert.rejects(Deno.stat(join(repo, "denied.txt")), Deno.errors.NotFound);
    });

    await step("a session that cannot start is an error without a thread", async () => {
      const result = await call("codex", { prompt: "hi", cwd: "no-such-folder" });
      assert.equal(result.isError, true);
      assert.match(result.content[0].text, /^Failed to start Codex session: .*no-such-folder/);
      assert.equal(result.structuredContent, undefined);
    });

    await step("two calls run at once, each in its own session", async () => {
      const { promise: quickDone, resolve: quickEnded } = Promise.withResolvers<void>();
      answer = async () => {
        await quickDone;
        return { action: "accept", content: { decision: "approved" } };
      };
      const slow = call("codex", { prompt: "make slow.txt", "approval-policy": "untrusted" });
      await until("the slow call's approval question", () => asked.length === 3);
      const quick = await call("codex", {
        prompt: "answer quickly",
        config: { "model_providers.fake.base_url": other.baseUrl },
      });
      quickEnded();
      assert.equal(quick.content[0].text, "Quick answer.");
      const slowResult = await slow;
      assert.equal(slowResult.content[0].text, "Slow one done.");
      assert.notEqual(slowResult.structuredContent!.threadId, quick.structuredContent!.threadId);
    });

    await step("a client cancellation stops the turn and withdraws its question", async () => {
      const cancel = new AbortController();
      const { promise: cancelled, resolve: withdrawn } = Promise.withResolvers<void>();
      answer = () => new Promise(() => {});
      client.setNotificationHandler(
        z.object({ method: z.literal("notifications/cancelled"), params: z.looseObject({}) }),
        () => withdrawn(),
      );
      const running = client.callTool(
        {
          name: "codex",
          arguments: { prompt: "make cancelled.txt", "approval-policy": "untrusted" },
        },
        undefined,
        { signal: cancel.signal },
      );
      await until("the approval question", () => asked.length === 4);
      const threadId = (events.at(-1)!._meta as Params).threadId as string;
      cancel.abort();
      await assert.rejects(running);
      await cancelled;
      let reply: ToolResult;
      await until("the thread to take a reply", async () => {
        reply = await call("codex-reply", { threadId, prompt: "Still there?" });
        return !/while its last turn is running/.test(reply.content[0].text);
      });
      assert.equal(reply!.content[0].text, "Yes.");
      await assert.rejects(Deno.stat(join(repo, "cancelled.txt")), Deno.errors.NotFound);
    });

    await step("every request satisfied the wire invariants and used the script up", () => {
      assert.deepEqual(model.failures, []);
      assert.deepEqual(other.failures, []);
      assert.equal(model.remaining(), 0);
    });
  } finally {
    await client.close();
    await until("the server process to exit", () => !alive(pid));
  }
});
