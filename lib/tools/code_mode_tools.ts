/**
 * Codex's code-mode tools as capabilities (harnesses/native/CODE_MODE.md): `code.exec` runs
 * JavaScript in a fresh sandboxed cell, `code.wait` resumes or ends a cell, `clock.sleep` waits.
 * The cell machinery loads on first use, so sessions that never use code mode never load it.
 */
import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability } from "./capability.ts";
import type { CellOutput } from "./code_mode/cells.ts";

export type { CellOutput };

/** Runs the source in a new cell; nested tool calls go through the session's approvals. */
export const codeExec = defineCapability({
  id: "code.exec",
  input: z.object({ source: z.string().describe("JavaScript source, optionally after a pragma") }),
  // The source changes nothing itself: every change it makes is a nested call, approved as such.
  mutates: false,
  async run(input, ctx): Promise<CellOutput> {
    const { execSource } = await import("./code_mode/cells.ts");
    return await execSource(input.source, ctx);
  },
});

/** Resumes a cell that yielded, or ends it with `terminate`. */
export const codeWait = defineCapability({
  id: "code.wait",
  input: z.object({
    cell_id: z.string().min(1).describe("The cell to resume"),
    yield_time_ms: z.number().int().min(0).optional().describe("How long to wait before yielding"),
    max_tokens: z.number().int().min(0).optional().describe("Most tokens of output returned"),
    terminate: z.boolean().optional().describe("End the cell instead of waiting"),
  }),
  mutates: false,
  async run(input, ctx): Promise<CellOutput> {
    const { waitCell } = await import("./code_mode/cells.ts");
    return await waitCell({
      cellId: input.cell_id,
      yieldTimeMs: input.yield_time_ms,
      maxTokens: input.max_tokens,
      terminate: input.terminate,
    }, ctx);
  },
});

/** The output of `clock.sleep`. */
export interface ClockSleepOutput {
  /** Seconds slept, four decimals. */
  wallTimeS: string;
}

/** The longest one sleep may take. */
const MAX_SLEEP_MS = 3_600_000;

/** Waits `duration_ms` (or until the turn is interrupted). */
export const clockSleep = defineCapability({
  id: "clock.sleep",
  input: z.object({ duration_ms: z.number().min(0).describe("Milliseconds to wait") }),
  mutates: false,
  async run(input, ctx): Promise<ClockSleepOutput> {
    if (input.duration_ms > MAX_SLEEP_MS) {
      throw new ToolError(
        `Cannot sleep ${input.duration_ms} ms: the most is ${MAX_SLEEP_MS} ms`,
        "Sleep less, then check again",
      );
    }
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, input.duration_ms);
      ctx.signal.addEventListener("abort", done, { once: true });
      function done() {
        clearTimeout(timer);
        ctx.signal.removeEventListener("abort", done);
        resolve();
      }
    });
    return { wallTimeS: ((performance.now() - started) / 1000).toFixed(4) };
  },
});
