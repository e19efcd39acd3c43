/**
 * Commands report their output through `ctx.progress` while they run, foreground and
 * background: each test holds its command at a gate file until it has seen the output.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { shellOutput, shellStart } from "./shell_background.ts";
import { shellRun } from "./shell_run.ts";
import type { ToolProgress } from "./types.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { until } from "../../tests/e2e/_poll.ts";

/** A shell loop that waits until file `name` exists. */
const gate = (name: string) => `while [ ! -e ${name} ]; do sleep 0.02; done`;

function textOf(progress: ToolProgress[], stream: ToolProgress["stream"]): string {
  return progress.filter((p) => p.stream === stream).map((p) => p.text).join("");
}

Deno.test("shellRun() reports output as it comes, before the command ends", async () => {
  await using ws = await tempWorkspace();
  let ended = false;
  const running = shellRun.run(
    { command: `echo started; ${gate("go")}; echo finished >&2` },
    ws.ctx,
  ).finally(() => ended = true);
  await until("the first line", () => textOf(ws.progress, "stdout") === "started\n");
  assert.equal(ended, false, "the command is still running");
  await Deno.writeTextFile(join(ws.dir, "go"), "");
  const out = await running;
  assert.equal(out.output, "started\nfinished\n");
  assert.equal(textOf(ws.progress, "stderr"), "finished\n", "stderr is its own stream");
});

Deno.test("shellRun() decodes a character split across two chunks whole", async () => {
  await using ws = await tempWorkspace();
  // "é" is two bytes: the first one, a pause at the gate, then the second one.
  const running = shellRun.run(
    { command: `printf '\\303'; touch half; ${gate("go")}; printf '\\251\\n'` },
    ws.ctx,
  );
  await until("the first byte", () => existsSync(join(ws.dir, "half")));
  await Deno.writeTextFile(join(ws.dir, "go"), "");
  await running;
  assert.equal(textOf(ws.progress, "stdout"), "é\n");
});

Deno.test("shellOutput() waiting on a background job reports the job's output meanwhile", async () => {
  await using ws = await tempWorkspace();
  const job = await shellStart.run(
    { command: `${gate("go1")}; echo halfway; ${gate("go2")}; echo done` },
    ws.ctx,
  );
  let ended = false;
  const waiting = shellOutput.run({ id: job.id, block: true, timeout_ms: 30_000 }, ws.ctx)
    .finally(() => ended = true);
  await Deno.writeTextFile(join(ws.dir, "go1"), "");
  await until("the job's first line", () => textOf(ws.progress, "stdout") === "halfway\n");
  assert.equal(ended, false, "still waiting for the job");
  await Deno.writeTextFile(join(ws.dir, "go2"), "");
  const out = await waiting;
  assert.equal(out.status, "completed");
  assert.equal(out.output, "halfway\ndone\n");
  const before = ws.progress.length;
  await shellOutput.run({ id: job.id }, ws.ctx);
  assert.equal(ws.progress.length, before, "a call that does not wait reports nothing");
});
