/**
 * Codex's interactive command sessions in the native harness (lib/tools/exec_session.ts): the
 * scripted model starts `python3` in a pseudo-terminal with `exec_command`, drives it with
 * `write_stdin` (a line, Ctrl-C, a cut output, exit), and leaves a second session running,
 * through real sessions in the workspace-write sandbox on each wire native allows, all against
 * one fake-provider process. The session shows in the job list while it runs and no process is
 * left once the session closed.
 */
import assert from "node:assert/strict";
import { openSession } from "../lib/session/open.ts";
import type { WireApi } from "../lib/providers/types.ts";
import { startFakeProvider } from "./fake_provider/server.ts";
import type { ScriptTurn } from "./fake_provider/script.ts";
import { requestWorkspace } from "./_request_workspace.ts";
import { until } from "./e2e/_poll.ts";

const WIRES: WireApi[] = ["responses", "chat", "messages"];

/**
 * The model's turns for one wire; `marker` names the session left running. The first wire gets
 * the whole scenario (Ctrl-C, a cut output); the others a line and exit, to keep the test lean.
 */
function script(marker: string, whole: boolean): ScriptTurn[] {
  const call = (name: string, args: Record<string, unknown>) => ({
    reply: { tool_calls: [{ name, args }] },
  });
  const stdin = (chars: string, more: Record<string, unknown> = {}) =>
    call("write_stdin", { session_id: 1000, chars, yield_time_ms: 1500, ...more });
  return [
    call("exec_command", { cmd: "python3 -q", tty: true, yield_time_ms: 3000 }),
    {
      expect: { last_tool_result_contains: "Process running with session ID 1000" },
      ...stdin("print(6 * 7)\n"),
    },
    ...(whole
      ? interrupted(stdin)
      : [{ expect: { last_tool_result_contains: "42" }, ...stdin("exit()\n") }]),
    {
      expect: { last_tool_result_contains: "Process exited with code 0" },
      ...call("exec_command", { cmd: `sleep 600 # ${marker}`, yield_time_ms: 250 }),
    },
    {
      expect: { last_tool_result_contains: "Process running with session ID 1001" },
      ...call("write_stdin", { session_id: 1001, chars: "x" }),
    },
    { expect: { last_tool_result_contains: "stdin is closed" }, reply: { text: "done" } },
  ];
}

/** A sleep interrupted by Ctrl-C, an output cut by max_output_tokens, then exit. */
function interrupted(stdin: (chars: string, more?: Record<string, unknown>) => ScriptTurn) {
  return [
    { expect: { last_tool_result_contains: "42" }, ...stdin("import time; time.sleep(60)\n") },
    { expect: { last_tool_result_contains: "session ID 1000" }, ...stdin("\u0003") },
    {
      expect: { last_tool_result_contains: "KeyboardInterrupt" },
      ...stdin("print('x' * 4000)\n", { max_output_tokens: 50 }),
    },
    { expect: { last_tool_result_contains: "tokens truncated" }, ...stdin("exit()\n") },
  ];
}

Deno.test("native: write_stdin drives an interactive python3 on every wire, and sessions end with the session", async () => {
  const markers = WIRES.map(() => `oi-session-${crypto.randomUUID()}`);
  await using fake = startFakeProvider(markers.flatMap((m, i) => script(m, i === 0)));
  for (const [i, wire] of WIRES.entries()) {
    await using ws = await requestWorkspace({
      prefix: "oi_exec_sessions_",
      files: { "README.md": "# demo\n" },
      model: "gpt-5-codex",
      wire,
      baseUrl: fake.baseUrl,
    });
    const progress: string[] = [];
    {
      await using session = await openSession(
        { cwd: ws.cwd, sandbox: "workspace-write", approval: "never" },
        {
          onEvent: (e) => {
            if (e.type === "tool_progress") progress.push(e.text);
          },
        },
        { env: ws.env },
      );
      const outcome = await session.prompt("try python", new AbortController().signal);
      assert.equal(outcome.status, "completed", `${wire}: ${JSON.stringify(fake.failures)}`);
      assert.deepEqual(fake.failures, [], wire);
      const running = session.jobs().filter((j) => j.status === "running");
      assert.deepEqual(running.map((j) => j.command), [`sleep 600 # ${markers[i]}`], wire);
      assert.match(progress.join(""), /42/, `${wire}: the output was shown live`);
    }
    await until(
      `${wire}: no process left after the session closed`,
      async () => !(await processWith(markers[i])),
    );
  }
  const sent = fake.requests.map((r) => JSON.stringify(r.body));
  assert.ok(sent.every((body) => body.includes("write_stdin")), "write_stdin is sent");
});

/** Whether a running process's command line holds `marker`. */
async function processWith(marker: string): Promise<boolean> {
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
    if (cmdline.includes(marker)) return true;
  }
  return false;
}

Deno.test("native code mode: exec's source drives a session with tools.write_stdin", async () => {
  const source = [
    'const r = await tools.exec_command({cmd: "read x; echo got $x", tty: true, yield_time_ms: 250});',
    "text(`running ${r.session_id} ${r.exit_code === undefined}`);",
    'const w = await tools.write_stdin({session_id: r.session_id, chars: "hi\\n", yield_time_ms: 5000});',
    'text(`exited ${w.exit_code} ${w.output.includes("got hi")}`);',
  ].join("\n");
  await using fake = startFakeProvider([
    { reply: { tool_calls: [{ id: "call_1", name: "exec", args: {}, input: source }] } },
    { reply: { text: "OK" } },
  ]);
  await using ws = await requestWorkspace({
    prefix: "oi_exec_sessions_cm_",
    files: { "README.md": "# demo\n" },
    model: "gpt-6.2-sol",
    wire: "responses",
    baseUrl: fake.baseUrl,
  });
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "workspace-write", approval: "never" },
    { onEvent: () => {} },
    { env: ws.env },
  );
  const outcome = await session.prompt("try it", new AbortController().signal);
  assert.equal(outcome.status, "completed", JSON.stringify(fake.failures));
  const output = JSON.stringify(fake.requests.at(-1)!.body);
  assert.match(output, /running 1000 true/);
  assert.match(output, /exited 0 true/);
});
