// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * Resume cost of a long session: writes a 100,000-event session (tool results of 1–5 KB, reasoning
 * with signatures, approvals, one compaction), then times `readSession()` beside a plain read and
 * `JSON.parse` of the same lines (interleaved, median of 7; target at most 5×), and
 * `findResumable()` plus `reopenForAppend()`, the rest of `resume --last`. Quick mode
 * (BENCH_QUICK=1 or --quick): 20,000 events, 3 rounds.
 *
 *   deno run -A scripts/bench/resume.ts [--quick]
 */
import type { SessionRecordInput } from "../../lib/store/records.ts";
import { findResumable } from "../../lib/session/resume.ts";
import { readSession } from "../../lib/store/read.ts";
import { createSession, reopenForAppend } from "../../lib/store/store.ts";
import { benchLine, isQuick, median, ms, sample } from "./_measure.ts";

const EVENTS = isQuick() ? 20_000 : 100_000;
const RUNS = isQuick() ? 3 : 7;
const TARGET_RATIO = 5;

/** A deterministic stream of pseudo-random numbers in [0, 1). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function* turnEvents(next: () => number): Generator<SessionRecordInput> {
  const usage = {
    inputTokens: 24_000,
    outputTokens: 180,
    cachedInputTokens: 20_000,
    reasoningTokens: 60,
  };
  for (let turn = 0;; turn++) {
    yield {
      type: "user_message",
      message: {
        role: "user",
        blocks: [{
          type: "text",
          text: `Task ${turn}: find why the parser test fails and fix it, then run the tests.`,
        }],
      },
    };
    for (let step = 0; step < 12; step++) {
      const id = `call_${turn}_${step}`;
      const command = `rg -n "parseHeader" lib/ --glob '*.ts' | head -${20 + step}`;
      yield {
        type: "assistant_message",
        message: {
          role: "assistant",
          blocks: [
            {
              type: "thinking",
              text: "The failure points at the header parser; look at its callers. ".repeat(4),
              signature: "EqQBCkgIARABGAIiQ".repeat(12),
            },
            { type: "text", text: "Searching for the callers." },
            { type: "tool_call", id, name: "Bash", args: { command, description: "Find callers" } },
          ],
          stop: "tool_calls",
          usage,
        },
      };
      yield { type: "tool_call", callId: id, name: "Bash", args: { command } };
      if (step % 4 === 0) yield { type: "approval", callId: id, decision: "approved" };
      const size = 1024 + Math.floor(next() * 4096);
      const line = "lib/session/read.ts:42:  const header = parseHeaderLine(lines[0], file);\n";
      const text = line.repeat(Math.ceil(size / line.length)).slice(0, size);
      yield {
        type: "tool_result",
        message: {
          role: "tool_result",
          callId: id,
          name: "Bash",
          blocks: [{ type: "text", text }],
          isError: false,
        },
        durationMs: 35,
      };
    }
    yield {
      type: "assistant_message",
      message: {
        role: "assistant",
        blocks: [{ type: "text", text: "Fixed; the tests pass." }],
        stop: "end_turn",
        usage,
      },
    };
  }
}

async function writeSession(home: string): Promise<{ file: string; writeMs: number }> {
  const events = turnEvents(random(7));
  const start = performance.now();
  await using writer = await createSession(home, {
    cwd: "/work/project",
    model: "qwen3-coder:30b",
    provider: "ollama",
    harness: "claude_code",
    sandbox: "workspace-write",
    approval: "on-request",
    origin: "repl",
  });
  for (let i = 0; i < EVENTS; i++) {
    if (i === EVENTS / 2) {
      const summary = "Summary of the work so far: the parser test failed because ...".repeat(20);
      await writer.append({
        type: "compaction",
        messages: [{ role: "user", blocks: [{ type: "text", text: summary }] }],
        tokensBefore: 120_000,
      });
      continue;
    }
    await writer.append(events.next().value!);
  }
  return { file: writer.file, writeMs: performance.now() - start };
}

async function main(): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "bench_resume_" });
  try {
    const { file, writeMs } = await writeSession(home);
    const bytes = (await Deno.stat(file)).size;
    const session = await readSession(file);
    console.log(
      `session: ${session.events.length} events, ${
        (bytes / 1e6).toFixed(1)
      } MB, ${session.history.length} messages after the compaction`,
    );
    console.log(
      `write, one awaited append per event   ${ms(writeMs)}   (${
        (writeMs * 1000 / EVENTS).toFixed(0)
      } µs per event)`,
    );
    const [read, parse, resume] = await sample(RUNS, [
      async () => {
        const start = performance.now();
        await readSession(file);
        return performance.now() - start;
      },
      async () => {
        const start = performance.now();
        for (const line of (await Deno.readTextFile(file)).split("\n")) if (line) JSON.parse(line);
        return performance.now() - start;
      },
      async () => {
        const start = performance.now();
        const last = await findResumable({ last: true, origin: "repl" }, {
          cwd: "/work/project",
          home,
        });
        await readSession(last.file);
        await (await reopenForAppend(last.file)).close();
        return performance.now() - start;
      },
    ]);
    const readMs = median(read);
    console.log(`load ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
    console.log(`readSession (median of ${RUNS})              ${ms(readMs)}`);
    console.log(`plain read + JSON.parse, same lines    ${ms(median(parse))}`);
    console.log(`resume --last: find, read, reopen      ${ms(median(resume))}`);
    console.log(
      benchLine(
        `resume ${EVENTS / 1000}k events / plain read`,
        readMs / median(parse),
        TARGET_RATIO,
      ),
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

await main();
