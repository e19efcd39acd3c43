import { allowAll } from "./_test_loop.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { serveDrops, textFrames } from "../../tests/fake_provider/drop_server.ts";
import { loadHarness } from "../harness/load.ts";
import { openProvider, type WireApi } from "../providers/mod.ts";
import { testSettings } from "../providers/_testing.ts";
import { runTurn } from "./agent_loop.ts";
import { freshState } from "./_test_loop.ts";
import type { LoopEvent } from "./events.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));
const FIRST = "Half of a first reply that never finishes";
const SECOND = "The whole second reply.";

for (const wire of ["chat", "responses", "messages"] as WireApi[]) {
  Deno.test(`runTurn() keeps only the retried reply when a ${wire} stream is reset midway`, async () => {
    const first = textFrames(wire, FIRST);
    await using server = serveDrops([
      { frames: first, cut: { after: first.length - 4, how: "reset" } },
      { frames: textFrames(wire, SECOND) },
    ]);
    const cwd = await Deno.makeTempDir();
    const harness = await loadHarness("native", { builtinDir: HARNESSES });
    const provider = await openProvider(testSettings(server.baseUrl, wire));
    const events: LoopEvent[] = [];
    const state = freshState();
    const signal = new AbortController().signal;
    const outcome = await runTurn(state, {
      toolHooks: allowAll,
      provider,
      harness,
      ctx: { cwd, signal, env: {}, state: new Map(), fs: inProcessFs },
      emit: (event) => {
        events.push(event);
        if (event.type === "text_delta") server.release();
      },
      signal,
    });
    await Deno.remove(cwd, { recursive: true });
    assert.deepEqual(outcome, { status: "completed", finalText: SECOND });
    assert.deepEqual(state.messages.map((m) => [m.role, m.blocks]), [
      ["user", [{ type: "text", text: "go" }]],
      ["assistant", [{ type: "text", text: SECOND }]],
    ]);
    const kinds = events.map((e) => e.type).filter((t, i, all) => t !== all[i - 1]);
    assert.deepEqual(kinds, [
      "model_request",
      "text_delta",
      "retry",
      "text_delta",
      "assistant_message",
      "turn_end",
    ]);
    const retry = events.find((e) => e.type === "retry");
    assert.ok(retry?.type === "retry" && retry.discarded);
  });
}
