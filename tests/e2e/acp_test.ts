/**
 * `interpreter acp` as a real process, driven over stdio by the official ACP SDK's client, the
 * model being the scripted fake provider: initialize; a prompt on the habit tracker that streams
 * text and reasoning, tool calls with their updates, a plan and an edit diff, with permission
 * requests answered allow and reject and an MCP server the client gives; a harness switch through
 * `session/set_config_option` that the next request shows; a cancel during a long command in
 * full-access mode; `/status`; `/init` declined over an AGENTS.md; `session/list`; then
 * `session/load` in a new process, and `/compact` there.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { findSessionFile } from "../../lib/store/mod.ts";
import { startFakeProvider } from "../fake_provider/server.ts";
import { assertNoProcesses, testServer } from "../mcp/_servers.ts";
import {
  of,
  startAgent,
  text,
  type ToolCall,
  type ToolCallUpdate,
  type Update,
} from "./_acp_client.ts";
import { fakeHome, fixtureRepo, tempDirs } from "./_harness_env.ts";
import { alive, until } from "./_poll.ts";
import { stepper } from "./_steps.ts";

const PATCH = "*** Begin Patch\n*** Update File: habits.py\n@@\n" +
  "     for previous, today in zip(days, days[1:]):\n" +
  "-        if today.day - previous.day == 1:\n+        if (today - previous).days == 1:\n" +
  "             current += 1\n*** End Patch\n";

Deno.test("acp serves the SDK client: prompts, tools, permissions, options, cancel and load", async (t) => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const marker = await dirs.add(Deno.makeTempDir({ prefix: "oi-acp-probe-" }));
  await using model = startFakeProvider([
    {
      expect: { tools_include: ["exec_command", "apply_patch", "mcp__probe__boom"] },
      reply: {
        thinking: "Look at the code first.",
        text: "Let me look.",
        tool_calls: [
          { name: "exec_command", args: { cmd: "cat habits.py" } },
          {
            name: "update_plan",
            args: {
              plan: [
                { step: "Read the code", status: "completed" },
                { step: "Fix the day comparison", status: "in_progress" },
              ],
            },
          },
        ],
      },
    },
    {
      expect: { last_tool_result_contains: "Plan updated" },
      reply: { tool_calls: [{ name: "apply_patch", args: { input: PATCH } }] },
    },
    {
      expect: { last_tool_result_contains: "habits.py" },
      reply: {
        tool_calls: [
          { name: "mcp__probe__boom", args: {} },
          { name: "exec_command", args: { cmd: "touch rejected.txt" } },
        ],
      },
    },
    {
      expect: { last_tool_result_contains: "refused" },
      reply: { text: "Fixed the streak; rejected.txt was not made." },
    },
    {
      expect: { tools_include: ["Bash", "Edit", "Read"], user_contains: "which tools" },
      reply: { text: "Claude Code tools now." },
    },
    {
      expect: { user_contains: "sleep" },
      reply: {
        tool_calls: [{
          name: "Bash",
          args: { command: "echo $$ > sleeper.pid; exec sleep 120", description: "Sleep" },
        }],
      },
    },
    { expect: { user_contains: "still there" }, reply: { text: "Yes." } },
    { expect: { user_contains: "forbidden" }, reply: { refusal: "I can't help with that." } },
    { reply: { text: "We fixed the streak bug in habits.py." } },
  ], { allowTranslatedCalls: true });
  const home = await dirs.add(fakeHome(model.baseUrl, "chat"));
  const probe = testServer("plain", marker);

  const a = startAgent(["--harness", "native"], { cwd: repo, home });
  const step = stepper(t, "agent stderr", a.stderr);
  let sessionId = "";
  try {
    await step("initialize advertises what the agent supports", async () => {
      const init = await a.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: { name: "acp-test", version: "1.0.0" },
      });
      assert.equal(init.protocolVersion, 1);
      assert.deepEqual(init.agentCapabilities, {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: false },
        sessionCapabilities: { list: {}, close: {} },
      });
      assert.equal(init.agentInfo?.name, "interpreter");
    });

    await step("authenticate answers with nothing to do", async () => {
      assert.deepEqual(
        await a.agent.request(acp.methods.agent.authenticate, { methodId: "api-key" }),
        {},
      );
    });

    await step("session/new answers with modes and config options", async () => {
      const created = await a.agent.request(acp.methods.agent.session.new, {
        cwd: repo,
        mcpServers: [{ name: "probe", command: probe.command!, args: probe.args!, env: [] }],
      });
      sessionId = created.sessionId;
      assert.equal(created.modes?.currentModeId, "workspace-write");
      assert.deepEqual(created.modes?.availableModes.map((m) => m.id), [
        "read-only",
        "workspace-write",
        "full-access",
      ]);
      const options = Object.fromEntries(created.configOptions!.map((o) => [o.id, o]));
      assert.deepEqual(Object.keys(options), ["mode", "model", "reasoning_effort", "harness"]);
      assert.equal(options.harness.currentValue, "native");
      assert.equal(options.model.currentValue, "fake/fake-model");
    });

    await step("the new session's commands come in one update", async () => {
      await until("the commands", () => of(a.updates, "available_commands_update").length === 1);
      const commands = of(a.updates, "available_commands_update")[0].availableCommands;
      assert.deepEqual(commands.map((c) => c.name), ["review", "compact", "init", "status"]);
    });

    await firstPrompt(step, { a, repo, sessionId: () => sessionId });

    await step("set_config_option switches the harness and sends an update", async () => {
      const { configOptions } = await a.agent.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        configId: "harness",
        value: "claude-code",
      });
      assert.equal(configOptions.find((o) => o.id === "harness")?.currentValue, "claude-code");
      await until(
        "the config option update",
        () => of(a.updates, "config_option_update").length > 0,
      );
    });

    await step(
      "set_config_option refuses a model the server's list lacks, naming the nearest",
      async () => {
        const error = await a.agent.request(acp.methods.agent.session.setConfigOption, {
          sessionId,
          configId: "model",
          value: "fake/fake-modle",
        }).then(() => undefined, (e: Error & { data?: { hint?: string } }) => e);
        assert.match(error?.message ?? "", /Unknown model "fake-modle" for provider "fake"/);
        assert.match(error?.data?.hint ?? "", /^Did you mean fake\/fake-model\?/);
      },
    );

    await step("the next request carries the new harness's tools", async () => {
      const done = await a.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "which tools do you have?" }],
      });
      assert.equal(done.stopReason, "end_turn");
      const body = JSON.stringify(model.requests.at(-1)!.body);
      assert.match(body, /"name":"Bash"/);
      assert.doesNotMatch(body, /"name":"exec_command"/);
    });

    await step("a cancel during a long command answers cancelled and kills it", async () => {
      await a.agent.request(acp.methods.agent.session.setMode, {
        sessionId,
        modeId: "full-access",
      });
      const pidFile = join(repo, "sleeper.pid");
      const running = a.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "sleep a while" }],
      });
      let pid = 0;
      await until("the command to start", async () => {
        pid = Number((await Deno.readTextFile(pidFile).catch(() => "")).trim());
        return pid > 0;
      });
      assert.ok(alive(pid));
      await a.agent.notify(acp.methods.agent.session.cancel, { sessionId });
      assert.equal((await running).stopReason, "cancelled");
      await until("the command's process to end", () => !alive(pid), 10_000);
    });

    await step("/status answers from the session without the model", async () => {
      const before = model.requests.length;
      const from = a.updates.length;
      const done = await a.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "/status" }],
      });
      assert.equal(done.stopReason, "end_turn");
      const status = text(a.updates.slice(from), "agent_message_chunk");
      assert.match(status, /\*\*harness\*\*: claude-code/);
      assert.match(status, /\*\*mode\*\*: full-access/);
      assert.equal(model.requests.length, before);
    });

    await step("/init asks before replacing AGENTS.md; declined, it sends nothing", async () => {
      await Deno.writeTextFile(join(repo, "AGENTS.md"), "# Ours\n");
      const before = model.requests.length;
      const from = a.updates.length;
      a.state.answer = () => "decline";
      const done = await a.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "/init" }],
      });
      assert.equal(done.stopReason, "end_turn");
      assert.equal(a.asked.at(-1)?.toolCall.title, `Replace ${join(repo, "AGENTS.md")}`);
      assert.match(text(a.updates.slice(from), "agent_message_chunk"), /^Kept .*AGENTS\.md/);
      assert.equal(model.requests.length, before);
      assert.equal(await Deno.readTextFile(join(repo, "AGENTS.md")), "# Ours\n");
      await Deno.remove(join(repo, "AGENTS.md"));
    });

    await step("session/list names the session by its first prompt", async () => {
      const { sessions } = await a.agent.request(acp.methods.agent.session.list, { cwd: repo });
      const listed = sessions.find((s) => s.sessionId === sessionId);
      assert.equal(listed?.title, "fix the streak bug");
      assert.equal(listed?.cwd, repo);
    });
  } finally {
    assert.equal((await a.close()).code, 0, a.stderr());
  }
  await step("the client's MCP server ends with the agent", () => assertNoProcesses(marker));

  const b = startAgent([], { cwd: repo, home });
  try {
    await loadedSession(stepper(t, "agent stderr", b.stderr), { b, home, repo, sessionId, model });
  } finally {
    assert.equal((await b.close()).code, 0, b.stderr());
  }
  await step("every request satisfied the wire invariants and used the script up", () => {
    assert.deepEqual(model.failures, []);
    assert.equal(model.remaining(), 0);
  });
});

type Step = (name: string, fn: () => void | Promise<void>) => Promise<boolean>;
type Agent = ReturnType<typeof startAgent>;

/** The tool calls of `updates` with how each ended, found by title. */
function callsOf(updates: Update[]) {
  const calls = of(updates, "tool_call");
  const ends = new Map(
    of(updates, "tool_call_update").filter((u) => u.status === "completed" || u.status === "failed")
      .map((u): [string, ToolCallUpdate] => [u.toolCallId, u]),
  );
  const byTitle = (title: string) => {
    const call = calls.find((c) => c.title === title);
    assert.ok(call, `no tool call titled ${JSON.stringify(title)}`);
    return call as ToolCall;
  };
  return { byTitle, end: (call: ToolCall) => ends.get(call.toolCallId) };
}

/**
 * The first prompt, on the habit tracker: one step runs it, then each thing it must show is a
 * step of its own, so one wrong detail hides none of the others.
 */
async function firstPrompt(
  step: Step,
  ctx: { a: Agent; repo: string; sessionId: () => string },
): Promise<void> {
  const { a, repo } = ctx;
  await step("a prompt on the habit tracker ends its turn", async () => {
    a.state.answer = (req) => {
      const call = of(a.updates, "tool_call").find((c) => c.toolCallId === req.toolCall.toolCallId);
      if (call?.title === "touch rejected.txt") return "decline";
      return call?.kind === "other" ? "acceptForSession" : "accept";
    };
    const done = await a.agent.request(acp.methods.agent.session.prompt, {
      sessionId: ctx.sessionId(),
      prompt: [{ type: "text", text: "fix the streak bug" }],
    });
    assert.equal(done.stopReason, "end_turn");
  });
  const turn = [...a.updates];
  const { byTitle, end } = callsOf(turn);

  await step("the reasoning and the reply stream as chunks", () => {
    assert.equal(text(turn, "agent_thought_chunk"), "Look at the code first.");
    assert.equal(
      text(turn, "agent_message_chunk"),
      "Let me look.Fixed the streak; rejected.txt was not made.",
    );
  });

  await step("a command is an execute call that ends with its output", () => {
    const cat = byTitle("cat habits.py");
    assert.equal(cat.kind, "execute");
    assert.equal(end(cat)?.status, "completed");
    assert.match(JSON.stringify(end(cat)?.content), /def longest_streak/);
  });

  await step("update_plan is a think call, and the plan comes as a plan update", () => {
    assert.equal(byTitle("Update the plan").kind, "think");
    assert.deepEqual(of(turn, "plan").at(-1)?.entries, [
      { content: "Read the code", priority: "medium", status: "completed" },
      { content: "Fix the day comparison", priority: "medium", status: "in_progress" },
    ]);
  });

  await step("an edit is an edit call with its location that ends with a diff", async () => {
    const edit = byTitle("Edit habits.py");
    assert.equal(edit.kind, "edit");
    assert.equal(edit.locations?.[0].path, join(repo, "habits.py"));
    const diff = end(edit)?.content?.find((c) => c.type === "diff");
    assert.ok(diff && diff.type === "diff", "the edit ends with a diff");
    assert.equal(diff.path, join(repo, "habits.py"));
    assert.match(diff.oldText ?? "", /if today\.day - previous\.day == 1:/);
    assert.match(diff.newText, /if \(today - previous\)\.days == 1:/);
    assert.match(await Deno.readTextFile(join(repo, "habits.py")), /\(today - previous\)\.days/);
  });

  await step("a call to the client's MCP server runs once allowed", () => {
    const boom = byTitle("probe/boom");
    assert.equal(boom.kind, "other");
    assert.match(JSON.stringify(end(boom)?.content), /survived/);
  });

  await step("a declined command fails and makes nothing", async () => {
    assert.equal(end(byTitle("touch rejected.txt"))?.status, "failed");
    await assert.rejects(Deno.stat(join(repo, "rejected.txt")), Deno.errors.NotFound);
  });

  await step(
    "permission is asked for the edit, the MCP call and the command, in order",
    () => {
      const asked = ["Edit habits.py", "probe/boom", "touch rejected.txt"];
      assert.deepEqual(
        a.asked.map((q) => q.toolCall.toolCallId),
        asked.map((title) => byTitle(title).toolCallId),
      );
      assert.deepEqual(a.asked[0].options.map((o) => [o.optionId, o.kind]), [
        ["accept", "allow_once"],
        ["acceptForSession", "allow_always"],
        ["decline", "reject_once"],
      ]);
    },
  );

  await step("the turn reports its token usage", () => {
    const usage = of(turn, "usage_update").at(-1);
    assert.ok(usage && usage.used > 0 && usage.size > 0, JSON.stringify(usage));
  });
}

/** `session/load` of the session in a new process, each part a step of its own. */
async function loadedSession(
  step: Step,
  ctx: {
    b: Agent;
    home: string;
    repo: string;
    sessionId: string;
    model: { requests: Array<{ body: unknown }> };
  },
): Promise<void> {
  const { b, repo, sessionId, model } = ctx;
  await step("session/load refuses a session file path or a path as the id", async () => {
    await b.agent.request(acp.methods.agent.initialize, { protocolVersion: 1 });
    const file = await findSessionFile(ctx.home, sessionId);
    for (const bad of [file, `../${sessionId}`]) {
      const load = { sessionId: bad, cwd: repo, mcpServers: [] };
      await assert.rejects(b.agent.request(acp.methods.agent.session.load, load), (e) => {
        assert.equal((e as acp.RequestError).code, -32602);
        assert.match(
          String((e as Error).message),
          /: it is no session id\nhint: session\/load takes a sessionId/,
        );
        return true;
      });
    }
    assert.deepEqual(b.updates, [], "nothing was replayed");
  });

  let loaded: acp.LoadSessionResponse | undefined;
  await step("session/load restores the harness the session switched to", async () => {
    loaded = await b.agent.request(acp.methods.agent.session.load, {
      sessionId,
      cwd: repo,
      mcpServers: [],
    });
    assert.equal(
      loaded.configOptions?.find((o) => o.id === "harness")?.currentValue,
      "claude-code",
    );
    assert.equal(loaded.modes?.currentModeId, "workspace-write");
  });
  const replayed = [...b.updates];

  await step("the replay has the user's prompts, the reasoning and the replies", () => {
    const users = of(replayed, "user_message_chunk").map((u) =>
      u.content.type === "text" ? u.content.text : ""
    );
    assert.deepEqual(users.filter((u) => !u.startsWith("Result of")), [
      "fix the streak bug",
      "which tools do you have?",
      "sleep a while",
    ]);
    assert.equal(text(replayed, "agent_thought_chunk"), "Look at the code first.");
    assert.match(text(replayed, "agent_message_chunk"), /^Let me look\..*Claude Code tools now\./s);
  });

  await step(
    "the replay has the tool calls with how they ended, the cancelled one too",
    () => {
      const cat = of(replayed, "tool_call").find((c) => c.title === "cat habits.py");
      assert.equal(cat?.kind, "execute");
      const catEnd = of(replayed, "tool_call_update").find((u) => u.toolCallId === cat?.toolCallId);
      assert.equal(catEnd?.status, "completed");
      const sleeper = of(replayed, "tool_call").find((c) => c.title?.startsWith("echo $$"));
      assert.ok(sleeper, "the cancelled command is replayed");
    },
  );

  await step("a loaded session continues the conversation", async () => {
    const done = await b.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "still there?" }],
    });
    assert.equal(done.stopReason, "end_turn");
    assert.match(JSON.stringify(model.requests.at(-1)!.body), /fix the streak bug.*still there/s);
  });

  await step("a refusal ends the turn as refusal, in the model's words", async () => {
    const asked = b.updates.length;
    const refused = await b.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "something forbidden" }],
    });
    assert.equal(refused.stopReason, "refusal");
    assert.equal(text(b.updates.slice(asked), "agent_message_chunk"), "I can't help with that.");
  });

  await step("/compact says how many tokens the context went from and to", async () => {
    const from = b.updates.length;
    const compacted = await b.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "/compact" }],
    });
    assert.equal(compacted.stopReason, "end_turn");
    const said = text(b.updates.slice(from), "agent_message_chunk");
    assert.match(said, /^Compacted the conversation: \d+ → \d+ tokens in context\.$/);
  });

  await step("session/close answers", async () => {
    assert.deepEqual(await b.agent.request(acp.methods.agent.session.close, { sessionId }), {});
  });
}
