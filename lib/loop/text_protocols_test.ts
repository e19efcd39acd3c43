import { allowAll } from "./_test_loop.ts";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../harness/load.ts";
import type { ModelRequest } from "../model/message.ts";
import { emptyUsage, textOf } from "../model/message.ts";
import type { Provider, ProviderSettings } from "../providers/types.ts";
import { Resources } from "../tools/resources.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { SessionScratch } from "../../sandbox/scratch_space.ts";
import { freshState } from "./_test_loop.ts";
import { runTurn } from "./agent_loop.ts";
import { countEvent, emptyRunCounts } from "../trajectory/run_counts.ts";
import { need } from "../../sandbox/_test_requires.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));
const TMUX = await need("tmux");

/** Runs one turn of harness `id` against scripted reply texts in a temp dir holding `files`. */
async function runText(id: string, replies: string[], files: Record<string, string> = {}) {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_text_" }));
  await using _base = { [Symbol.asyncDispose]: () => Deno.remove(base, { recursive: true }) };
  const cwd = `${base}/ws`;
  await Deno.mkdir(cwd);
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${cwd}/${name}`, text);
  }
  const harness = await loadHarness(id, { builtinDir: HARNESSES });
  const requests: ModelRequest[] = [];
  const provider: Provider = {
    settings: {} as ProviderSettings,
    async *stream(request) {
      requests.push(structuredClone(request));
      const text = replies.shift();
      if (text === undefined) throw new Error("script exhausted");
      yield {
        type: "done",
        blocks: [{ type: "text", text }],
        stop: "end_turn",
        usage: emptyUsage(),
      };
    },
  };
  const state = freshState();
  const counts = emptyRunCounts();
  const signal = new AbortController().signal;
  const ctxState = new Map<string, unknown>();
  const resources = new Resources();
  await using scratch = new SessionScratch(`${base}/run`);
  try {
    const outcome = await runTurn(state, {
      toolHooks: allowAll,
      provider,
      harness,
      ctx: {
        cwd,
        signal,
        env: { PATH: Deno.env.get("PATH") ?? "" },
        state: ctxState,
        resources,
        fs: inProcessFs,
        scratch,
      },
      emit: (event) => countEvent(counts, event),
      signal,
    });
    const users = state.messages.filter((m) => m.role === "user").slice(1).map((m) =>
      textOf(m.blocks)
    );
    const after: Record<string, string> = {};
    for (const name of Object.keys(files)) after[name] = await Deno.readTextFile(`${cwd}/${name}`);
    return { outcome, users, requests, files: after, counts };
  } finally {
    await resources[Symbol.asyncDispose]();
  }
}

Deno.test("runTurn() with swe-agent corrects a malformed reply, edits, and ends on a confirmed submit", async () => {
  const { outcome, users, requests, files, counts } = await runText("swe-agent", [
    "I will just think about it.",
    "DISCUSSION\nFix the value.\n```\nstr_replace_editor str_replace a.txt --old_str 'x = 1' --new_str 'x = 2'\n```",
    "DISCUSSION\nCheck.\n```\ncat a.txt\n```",
    "DISCUSSION\nThe value is fixed.\n```\nsubmit\n```",
    "```\nsubmit\n```",
  ], { "a.txt": "x = 1\n" });
  assert.deepEqual(outcome, { status: "completed", finalText: "The value is fixed." });
  assert.ok(requests.every((r) => r.tools.length === 0));
  assert.match(users[0], /^Your reply could not be used: your reply has no command in it/);
  assert.match(users[1], /^OBSERVATION:\nThe file .*a\.txt has been edited\./);
  assert.equal(users[2], "OBSERVATION:\nx = 2\n");
  assert.match(users[3], /look over the changes/);
  assert.equal(files["a.txt"], "x = 2\n");
  assert.equal(counts.failed_tool_calls.format, 1, "the malformed reply counts as a format error");
  assert.equal(counts.requests, 5);
});

Deno.test("runTurn() with mini-swe-agent corrects a malformed reply and ends on the sentinel", async () => {
  const { outcome, users, counts } = await runText("mini-swe-agent", [
    "```bash\nls\n```\n```bash\npwd\n```",
    "Count lines.\n```bash\nwc -l < a.txt\n```",
    "Done.\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && echo 'Counted 2 lines.'\n```",
  ], { "a.txt": "1\n2\n" });
  assert.deepEqual(outcome, { status: "completed", finalText: "Counted 2 lines." });
  assert.match(users[0], /^Your reply could not be run: your reply has 2 bash code blocks/);
  assert.equal(users[1], "<returncode>0</returncode>\n<output>\n2\n</output>");
  assert.equal(users.length, 2, "the submit ends the turn without another request");
  assert.equal(counts.failed_tool_calls.format, 1);
  assert.equal(counts.tool_calls, 2);
});

Deno.test({
  name: "runTurn() with terminus-2 corrects bad JSON, types into tmux, and ends on confirmation" +
    TMUX.note,
  ignore: TMUX.ignore,
  async fn() {
    const step = (o: Record<string, unknown>) => JSON.stringify({ analysis: "", plan: "", ...o });
    const { outcome, users } = await runText("terminus-2", [
      '{"analysis": "oops", "plan": ',
      step({
        commands: [{ keystrokes: "export N=7\n", duration: 0 }, {
          keystrokes: "echo n=$N\n",
          duration: 0,
        }],
      }),
      step({ commands: [], task_complete: true }),
      step({ analysis: "Printed n=7.", commands: [], task_complete: true }),
    ]);
    assert.deepEqual(outcome, { status: "completed", finalText: "Printed n=7." });
    assert.match(users[0], /^Previous response had parsing errors:\nERROR: No valid JSON found/);
    assert.match(users[1], /^New Terminal Output:\n\S+# export N=7\n\S+# echo n=\$N\nn=7\n\S+#$/);
    assert.match(users[2], /^Current terminal state:\n[\s\S]*n=7[\s\S]*Do you really want/);
  },
});
