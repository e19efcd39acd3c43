import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession, type SessionEvent } from "./open.ts";

const signal = new AbortController().signal;

/** A TOML hook group for `event` running `script` (written to `dir` as NAME.sh). */
async function hookToml(
  dir: string,
  hook: { event: string; matcher: string; name: string; script: string },
): Promise<string> {
  const file = join(dir, `${hook.name}.sh`);
  await Deno.writeTextFile(file, hook.script);
  return `[[hooks.${hook.event}]]\nmatcher = ${JSON.stringify(hook.matcher)}\n` +
    `[[hooks.${hook.event}.hooks]]\ntype = "command"\ncommand = ${
      JSON.stringify(`sh '${file}'`)
    }\n`;
}

const readLines = async (file: string) =>
  (await Deno.readTextFile(file)).trim().split("\n").map((line) => JSON.parse(line));

Deno.test("SubagentStart gives a sub-agent context and SubagentStop keeps it going once; its events carry its call's id", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_subagent_hooks_" });
  await using fake = await startFakeProvider([
    {
      reply: {
        tool_calls: [{
          name: "Agent",
          args: { prompt: "find the bug", description: "finder", subagent_type: "explorer" },
        }],
      },
    },
    { expect: { user_contains: "start-note" }, reply: { text: "first answer" } },
    { expect: { user_contains: "look once more" }, reply: { text: "second answer" } },
    { expect: { last_tool_result_contains: "second answer" }, reply: { text: "done" } },
  ]);
  const start = '{"hookSpecificOutput":{"hookEventName":"SubagentStart",' +
    '"additionalContext":"start-note"}}';
  const hooks = [
    await hookToml(dir, {
      event: "SubagentStart",
      matcher: "explorer",
      name: "start",
      script: `cat >> '${dir}/start.jsonl'; echo >> '${dir}/start.jsonl'; printf '%s' '${start}'\n`,
    }),
    await hookToml(dir, {
      event: "SubagentStart",
      matcher: "reviewer",
      name: "other",
      script: `cat > '${dir}/other.json'\n`,
    }),
    await hookToml(dir, {
      event: "SubagentStop",
      matcher: "",
      name: "stop",
      script: `input=$(cat); printf '%s\\n' "$input" >> '${dir}/stop.jsonl'\n` +
        `case "$input" in *'"stop_hook_active":false'*) echo "look once more" >&2; exit 2;; esac\n`,
    }),
  ];
  await using ws = await sessionWorkspace(fake.baseUrl, hooks.join("\n"));
  try {
    const events: SessionEvent[] = [];
    await using session = await openSession(
      { cwd: ws.cwd, harness: "kimi-code", sandbox: "danger-full-access", approval: "never" },
      { onEvent: (e) => events.push(e) },
      { env: ws.env },
    );
    const outcome = await session.prompt("go", signal);
    assert.deepEqual(outcome, { status: "completed", finalText: "done" });
    assert.deepEqual(fake.failures, []);

    const [started] = await readLines(join(dir, "start.jsonl"));
    assert.equal(started.hook_event_name, "SubagentStart");
    assert.equal(started.agent_type, "explorer");
    assert.match(started.agent_id, /^agent-(\d+|[0-9a-f]{8})$/);
    const stops = await readLines(join(dir, "stop.jsonl"));
    assert.deepEqual(
      stops.map((s) => [s.agent_id, s.agent_type, s.stop_hook_active, s.last_assistant_message]),
      [
        [started.agent_id, "explorer", false, "first answer"],
        [started.agent_id, "explorer", true, "second answer"],
      ],
    );
    assert.equal(stops[0].agent_transcript_path, null);
    // The control: a SubagentStart hook matching another agent type does not run.
    await assert.rejects(Deno.stat(join(dir, "other.json")), Deno.errors.NotFound);

    const call = events.find((e) => e.type === "tool_start");
    assert.ok(call?.type === "tool_start");
    const sub = events.filter((e) => e.type === "subagent");
    assert.ok(sub.length > 0);
    for (const e of sub) assert.equal(e.type === "subagent" && e.parentCallId, call.call.id);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
