import assert from "node:assert/strict";
import { HarnessError } from "../errors.ts";
import { renderResult, resolveCall } from "./call.ts";
import { loadHarnessDir } from "./load.ts";
import { BASE_FILES, writeHarness } from "./_test_harness.ts";

const SPEC = `
id = "r"
label = "Routes"
system_prompt = "prompts/system.md"
wire_apis = ["messages"]
reasoning_replay = "none"
error_template = "{message}"
unknown_tool_template = "No tool named {name}"

[[tools]]
declaration = "tools/sh.json"
capability = "shell.run"
args = { command = "command", timeout = "timeout_ms", background = "", label = "" }
scale = { timeout = 1000 }
result = { template = "ran: {output}" }

[tools.route]
when = "background"
capability = "shell.start"
args = { command = "command", label = "description", background = "", timeout = "" }
result = { template = "started {id} writing to {output_path}" }
`;

const FILES = {
  ...BASE_FILES,
  "tools/sh.json": JSON.stringify({
    name: "sh",
    description: "Run a command.",
    parameters: {
      type: "object",
      properties: {
        command: { type: "string" },
        timeout: { type: "number" },
        background: { type: "boolean" },
        label: { type: "string" },
      },
      required: ["command"],
      additionalProperties: false,
    },
  }),
};

async function load(spec: string) {
  const root = await Deno.makeTempDir();
  try {
    return await loadHarnessDir(await writeHarness(root, "r", spec, FILES));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function loadError(spec: string): Promise<HarnessError> {
  const err = await load(spec).then(() => undefined, (e) => e);
  assert.ok(err instanceof HarnessError, `expected HarnessError, got ${err}`);
  return err;
}

Deno.test("resolveCall() follows a route when the call sets its argument", async () => {
  const h = await load(SPEC);
  const r = resolveCall(h, {
    name: "sh",
    args: { command: "sleep 9", background: true, label: "nap", timeout: 5 },
  });
  assert.equal(r.capability.id, "shell.start");
  assert.equal(r.tool.declaration.name, "sh");
  assert.deepEqual(r.input, { command: "sleep 9", description: "nap" });
  const text = renderResult(r.tool, { id: "job-1", outputPath: "/tmp/job-1.output" });
  assert.equal(text, "started job-1 writing to /tmp/job-1.output");
});

Deno.test("resolveCall() keeps the tool's own capability when the route argument is unset", async () => {
  const h = await load(SPEC);
  for (const background of [false, undefined, null]) {
    const r = resolveCall(h, { name: "sh", args: { command: "ls", background, timeout: 2 } });
    assert.equal(r.capability.id, "shell.run");
    assert.deepEqual(r.input, { command: "ls", timeout_ms: 2000 });
    assert.equal(renderResult(r.tool, { output: "a" }), "ran: a");
  }
});

Deno.test("loadHarnessDir() rejects a route on an undeclared argument", async () => {
  const err = await loadError(SPEC.replace('when = "background"', 'when = "detach"'));
  assert.match(err.message, /tools\[0\]\.route\.when.*"detach" is not a parameter of tool "sh"/);
});

Deno.test("loadHarnessDir() checks a route's mapping against its own capability", async () => {
  const unmapped = await loadError(SPEC.replace(', timeout = "" }', " }"));
  assert.match(unmapped.message, /tools\[0\]\.route\.args.*parameter "timeout".*not mapped/);
  const wrongField = await loadError(SPEC.replace('timeout = "" }', 'timeout = "timeout_ms" }'));
  assert.match(wrongField.message, /route\.args\.timeout.*not an input field.*"shell\.start"/);
  const unknown = await loadError(SPEC.replace('"shell.start"', '"shell.fork"'));
  assert.match(unknown.message, /route\.capability.*unknown capability "shell\.fork"/);
});

Deno.test("loadHarnessDir() names the key of a route pattern that is not a valid regex", async () => {
  const spec = SPEC.replace('when = "background"', 'when = "command"\nmatches = "(unclosed"');
  await assert.rejects(load(spec), (error: unknown) => {
    assert.ok(error instanceof HarnessError);
    assert.match(error.message, /route\.matches/);
    return true;
  });
});
