import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HarnessError } from "../errors.ts";
import { CAPABILITIES } from "../tools/registry.ts";
import { listHarnessIds, loadHarnessDir, SPEC_FILE } from "./load.ts";
import { renderResult } from "./call.ts";
import { SAMPLE_OUTPUTS } from "./_sample_outputs.ts";
import { placeholdersFor, sampleRender } from "./placeholders.ts";
import type { HarnessTool } from "./types.ts";
import { BASE_SPEC, writeHarness } from "./_test_harness.ts";

const BUILTIN = fileURLToPath(new URL("../../harnesses/", import.meta.url));

async function loadError(spec: string): Promise<HarnessError> {
  const root = await Deno.makeTempDir();
  try {
    const dir = await writeHarness(root, "t", spec);
    const err = await loadHarnessDir(dir).then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof HarnessError, `expected a HarnessError, got ${err}`);
    assert.ok(err.message.includes(join(dir, SPEC_FILE)), err.message);
    return err;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("a typo'd result placeholder is a load error naming the file, tool and placeholder", async () => {
  const err = await loadError(BASE_SPEC.replace("exit {exit_code}", "exit {exit_cod}"));
  assert.match(err.message, /tools\[0\]\.result\.template/);
  assert.match(err.message, /tool "run" uses unknown placeholder "\{exit_cod\}"/);
  assert.match(err.hint ?? "", /\{exit_code\}/);
  assert.match(err.hint ?? "", /\{duration_s\}/);
});

Deno.test("a placeholder of another capability is refused, in empty_output too", async () => {
  let err = await loadError(BASE_SPEC.replace("{output}", "{numbered_lines}"));
  assert.match(err.message, /"\{numbered_lines\}"/);
  err = await loadError(BASE_SPEC.replace('"(no output)"', '"(none in {cwdd})"'));
  assert.match(err.message, /result\.empty_output/);
  assert.match(err.message, /"\{cwdd\}"/);
});

Deno.test("a route's result template is checked against the route's capability", async () => {
  const spec = `${BASE_SPEC}route = { when = "note", capability = "shell.start", args = { ` +
    `command = "command", dir = "cwd", note = "" }, result = { template = "job {id} {exit_code}" } }\n`;
  const err = await loadError(spec);
  assert.match(err.message, /route\.result\.template/);
  assert.match(err.message, /"\{exit_code\}"/);
});

Deno.test("every built-in harness loads with its result templates checked", async () => {
  const ids = await listHarnessIds({ builtinDir: BUILTIN });
  assert.ok(ids.includes("claude-code") && ids.length > 5, ids.join(","));
  for (const id of ids) {
    // As a folder from outside the built-in set: a session skips these checks on built-ins
    // (`loadHarness()`), so this is where their texts are held to their placeholders.
    const h = await loadHarnessDir(join(BUILTIN, id));
    for (const tool of h.tools) {
      assert.equal(typeof sampleRender(tool), "string", `${id}: ${tool.declaration.name}`);
    }
  }
});

Deno.test("the table covers every capability, and its placeholders resolve on a sample", () => {
  assert.deepEqual(Object.keys(SAMPLE_OUTPUTS).sort(), CAPABILITIES.map((c) => c.id).sort());
  const derivedSeen = new Set<string>();
  for (const id of Object.keys(SAMPLE_OUTPUTS)) {
    for (const name of placeholdersFor(id)!) {
      const tool = { result: { template: `{${name}}` } } as HarnessTool;
      const renders = SAMPLE_OUTPUTS[id].map((o) => renderResult(tool, o));
      assert.ok(renders.some((r) => r !== `{${name}}`), `${id}: {${name}} does not resolve`);
      derivedSeen.add(name);
    }
  }
  for (const name of ["exit_note", "numbered_lines", "grep_text", "task_lines", "plan_json"]) {
    assert.ok(derivedSeen.has(name), name);
  }
  assert.ok(placeholdersFor("shell.run")!.includes("unless_timed_out"));
  assert.ok(!placeholdersFor("shell.run")!.includes("numbered_lines"));
  assert.equal(placeholdersFor("no.such"), undefined);
});
