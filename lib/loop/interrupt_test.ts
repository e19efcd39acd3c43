import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { DEFAULT_INTERRUPTED_TEXT, loadHarness } from "../harness/load.ts";
import { tempWorkspace } from "../tools/_test_workspace.ts";
import { runTurn } from "./agent_loop.ts";
import { allowAll, call, freshState, scriptedProvider, testContext } from "./_test_loop.ts";
import type { LoopEvent } from "./events.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));
const CLAUDE = "[Request interrupted by user for tool use]";

/** A turn whose first call runs `cmd` under `harnessId`; the user stops it once it printed. */
async function interruptedTurn(harnessId: string, first: ReturnType<typeof call>) {
  await using ws = await tempWorkspace();
  const harness = await loadHarness(harnessId, { builtinDir: HARNESSES });
  const { provider } = scriptedProvider([[first, call("c2", "Bash", { command: "true" })]]);
  const controller = new AbortController();
  const state = freshState();
  const events: LoopEvent[] = [];
  const outcome = await runTurn(state, {
    toolHooks: allowAll,
    provider,
    harness,
    ctx: testContext(ws.dir, controller.signal, inProcessFs),
    emit: (e) => {
      events.push(e);
      if (e.type === "tool_progress") controller.abort();
    },
    signal: controller.signal,
  });
  const results = state.messages.filter((m) => m.role === "tool_result");
  return { outcome, events, results };
}

Deno.test("a command the user interrupts reads as the harness's interruption text, never the AbortError", async () => {
  const { outcome, events, results } = await interruptedTurn(
    "claude-code",
    call("c1", "Bash", { command: "echo started; sleep 30" }),
  );
  assert.deepEqual(outcome, { status: "aborted" });
  const texts = results.map((r) => [r.callId, r.isError, (r.blocks[0] as { text: string }).text]);
  assert.deepEqual(texts, [["c1", true, CLAUDE], ["c2", true, CLAUDE]]);
  const end = events.find((e) => e.type === "tool_end");
  assert.deepEqual(
    end && { text: end.text, interrupted: end.interrupted },
    { text: CLAUDE, interrupted: true },
  );
  assert.doesNotMatch(JSON.stringify(events), /AbortError|signal has been aborted/);
});

Deno.test("each built-in harness declares its own interruption text", async () => {
  const want: Record<string, string> = {
    "claude-code": CLAUDE,
    "claude-code-bare": CLAUDE,
    native: "command aborted by user",
    opencode: "Tool execution aborted",
  };
  for await (const entry of Deno.readDir(HARNESSES)) {
    if (!entry.isDirectory || entry.name.startsWith("_")) continue;
    const spec = await Deno.readTextFile(`${HARNESSES}/${entry.name}/harness.toml`);
    assert.match(spec, /^interrupted_text = /m, `${entry.name} declares interrupted_text`);
    const harness = await loadHarness(entry.name, { builtinDir: HARNESSES });
    if (want[entry.name]) assert.equal(harness.interruptedText, want[entry.name], entry.name);
  }
});

Deno.test("a harness without interrupted_text gets the neutral sentence", async () => {
  const smallest = fileURLToPath(new URL("../../tests/fixtures/harnesses", import.meta.url));
  const harness = await loadHarness("smallest", { builtinDir: smallest });
  assert.equal(harness.interruptedText, DEFAULT_INTERRUPTED_TEXT);
});
