import assert from "node:assert/strict";
import { HarnessError } from "../../errors.ts";
import { loadHarnessDir } from "../load.ts";
import { BASE_FILES, BASE_SPEC, writeHarness } from "../_test_harness.ts";
import { PROTOCOLS } from "./mod.ts";

/** The base `t` harness with its tool renamed to `bash`, plus `extra` appended to the spec. */
async function load(extra: string, tool = "bash") {
  const root = await Deno.makeTempDir();
  try {
    const decl = JSON.parse(BASE_FILES["tools/run.json"]);
    const files = { ...BASE_FILES, "tools/run.json": JSON.stringify({ ...decl, name: tool }) };
    const dir = await writeHarness(root, "t", BASE_SPEC + extra, files);
    return await loadHarnessDir(dir);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function loadError(extra: string, tool = "bash"): Promise<HarnessError> {
  try {
    await load(extra, tool);
  } catch (err) {
    assert.ok(err instanceof HarnessError, String(err));
    return err;
  }
  throw new assert.AssertionError({ message: "the harness loaded" });
}

const MINI = `
[interaction]
kind = "text"
protocol = "mini_swe_agent"
messages = { format_error = "Bad reply: {problem}", observation = "{json}", observation_long = "{json}", timeout = "{json}" }
`;

Deno.test("loadHarnessDir() attaches the text protocol named in [interaction]", async () => {
  const h = await load(MINI);
  assert.ok(h.protocol);
  const parsed = h.protocol.parse("hi", new Map());
  assert.deepEqual(parsed, {
    kind: "format_error",
    message: "Bad reply: your reply has no bash code block",
  });
  assert.equal((await load("")).protocol, undefined, "no [interaction] means function calls");
  const fc = await load('\n[interaction]\nkind = "function_calls"\n');
  assert.equal(fc.protocol, undefined);
});

Deno.test("loadHarnessDir() names the file, key and known ids for an unknown protocol", async () => {
  const err = await loadError(MINI.replace("mini_swe_agent", "aider"));
  assert.match(err.message, /^Invalid harness spec ".*harness\.toml": key "interaction\.protocol"/);
  assert.match(err.message, /unknown protocol "aider"/);
  for (const id of Object.keys(PROTOCOLS)) assert.match(err.hint ?? "", new RegExp(`"${id}"`));
});

Deno.test("loadHarnessDir() rejects incomplete or inconsistent [interaction] tables", async () => {
  const noProtocol = await loadError('\n[interaction]\nkind = "text"\n');
  assert.match(noProtocol.message, /"interaction\.protocol": required when kind = "text"/);
  const stray = await loadError('\n[interaction]\nprotocol = "swe_agent"\n');
  assert.match(stray.message, /"interaction\.protocol": set only when kind = "text"/);
  const badKind = await loadError('\n[interaction]\nkind = "json"\n');
  assert.match(badKind.message, /interaction\.kind/);
  const missing = await loadError(MINI.replace(/messages = .*/, ""));
  assert.match(missing.message, /"interaction\.messages\.format_error": missing/);
  const unknown = await loadError(MINI.replace('" }', '", hello = "x" }'));
  assert.match(unknown.message, /"interaction\.messages\.hello": unknown message/);
  const placeholder = await loadError(MINI.replace("{problem}", "{oops}"));
  assert.match(placeholder.message, /unknown placeholder "\{oops\}"/);
  assert.equal(placeholder.hint, "Use {problem}, {count}");
  const noTool = await loadError(MINI, "run");
  assert.match(noTool.message, /key "tools": protocol "mini_swe_agent" needs a tool named "bash"/);
});
