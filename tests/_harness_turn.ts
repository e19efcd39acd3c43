/** Test helper: one agent-loop turn of a built-in harness against a scripted provider. */
import { fileURLToPath } from "node:url";
import { loadHarness } from "../lib/harness/load.ts";
import { runTurn } from "../lib/loop/agent_loop.ts";
import type { TurnContext } from "../lib/tools/types.ts";
import { allowAll, freshState, scriptedProvider, testContext } from "../lib/loop/_test_loop.ts";
import { type Message, textOf } from "../lib/model/message.ts";
import { tempWorkspace } from "../lib/tools/_test_workspace.ts";
import { inProcessFs } from "../sandbox/file_system.ts";

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));

/**
 * One turn of `harnessId` with `replies` in a temp workspace, its context first given to `setUp`;
 * the requests, the tool results the model read, and the (removed) workspace folder.
 */
export async function harnessTurn(
  harnessId: string,
  replies: Parameters<typeof scriptedProvider>[0],
  setUp: (ctx: TurnContext) => void = () => {},
) {
  await using ws = await tempWorkspace();
  const harness = await loadHarness(harnessId, { builtinDir: HARNESSES });
  const { provider, requests } = scriptedProvider(replies);
  const state = freshState();
  const signal = new AbortController().signal;
  const ctx = testContext(ws.dir, signal, inProcessFs);
  setUp(ctx);
  await runTurn(state, { toolHooks: allowAll, provider, harness, ctx, emit: () => {}, signal });
  const results = state.messages.filter((m): m is Message & { role: "tool_result" } =>
    m.role === "tool_result"
  ).map((m) => textOf(m.blocks));
  return { requests, results, dir: ws.dir };
}
