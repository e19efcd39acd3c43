/**
 * `interpreter acp` as a real process with the official ACP SDK's client connected over stdio,
 * for the ACP end-to-end tests: every session update and permission request is recorded, and
 * `close()` checks that stdout held nothing but JSON-RPC.
 */
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { LAUNCHER } from "./_harness_env.ts";

export type Update = acp.SessionUpdate;
export type ToolCall = Extract<Update, { sessionUpdate: "tool_call" }>;
export type ToolCallUpdate = Extract<Update, { sessionUpdate: "tool_call_update" }>;

/** One `interpreter acp` process and the SDK client connected to it; `vars` go in its environment. */
export function startAgent(
  args: string[],
  env: { cwd: string; home: string; vars?: Record<string, string> },
) {
  const child = new Deno.Command(LAUNCHER, {
    args: ["acp", ...args],
    cwd: env.cwd,
    env: { OPENINTERPRETER_HOME: env.home, FAKE_API_KEY: "test-key", NO_COLOR: "1", ...env.vars },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const stderrRead = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (text) => void (stderr += text) }),
  );
  // Stdout is read twice: by the SDK, and here to check that it holds nothing but messages.
  const [forSdk, forCheck] = child.stdout.tee();
  let stdout = "";
  const stdoutRead = forCheck.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (text) => void (stdout += text) }),
  );
  const updates: Update[] = [];
  const asked: acp.RequestPermissionRequest[] = [];
  const state = { answer: (_: acp.RequestPermissionRequest) => "decline" };
  const connection = acp.client({ name: "acp-test" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params.update);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      asked.push(params);
      return { outcome: { outcome: "selected", optionId: state.answer(params) } };
    })
    .connect(acp.ndJsonStream(child.stdin, forSdk));
  return {
    agent: connection.agent,
    updates,
    asked,
    state,
    stderr: () => stderr,
    /** Closes stdin, waits for the process to end, and checks stdout held only JSON-RPC. */
    async close() {
      connection.close();
      await child.stdin.close().catch(() => {});
      const status = await child.status;
      await Promise.all([stderrRead, stdoutRead.catch(() => {})]);
      for (const line of stdout.split("\n").filter(Boolean)) {
        assert.equal(JSON.parse(line).jsonrpc, "2.0", `not a JSON-RPC message on stdout: ${line}`);
      }
      return status;
    },
  };
}

/** The updates of one kind. */
export function of<K extends Update["sessionUpdate"]>(updates: Update[], kind: K) {
  return updates.filter((u): u is Extract<Update, { sessionUpdate: K }> =>
    u.sessionUpdate === kind
  );
}

/** The text of the chunks of one kind, joined. */
export function text(updates: Update[], kind: "agent_message_chunk" | "agent_thought_chunk") {
  return of(updates, kind).map((u) => u.content.type === "text" ? u.content.text : "").join("");
}
