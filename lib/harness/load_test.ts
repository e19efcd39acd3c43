import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { HarnessError } from "../errors.ts";
import { listHarnessIds, loadHarness, loadHarnessDir } from "./load.ts";
import { userHarnessWarnings } from "./user_harnesses.ts";
import { BASE_FILES, BASE_SPEC, writeHarness } from "./_test_harness.ts";

const BUILTIN = fileURLToPath(new URL("../../harnesses/", import.meta.url));

Deno.test("loadHarness() loads the native harness with its tools, MCP ones only with servers", async () => {
  const h = await loadHarness("native", { builtinDir: BUILTIN });
  assert.equal(h.id, "native");
  assert.deepEqual(h.wireApis, ["responses", "chat", "messages"]);
  assert.equal(h.reasoningReplay, "all");
  assert.deepEqual(
    h.tools.map((t) => [t.declaration.name, t.capability, t.when]),
    [
      ["exec_command", "shell.run", undefined],
      ["write_stdin", "shell.write_stdin", undefined],
      ["apply_patch", "fs.apply_patch", undefined],
      ["update_plan", "plan.update", undefined],
      ["request_user_input", "user.ask", undefined],
      ["view_image", "image.view", undefined],
      ["list_mcp_resources", "mcp.list_resources", "mcp_servers"],
      ["read_mcp_resource", "mcp.read_resource", "mcp_servers"],
      ["spawn_agent", "agent.spawn", undefined],
      ["send_input", "agent.send", undefined],
      ["wait_agent", "agent.wait", undefined],
      ["close_agent", "agent.close", undefined],
      ["resume_agent", "agent.resume", undefined],
      ["create_goal", "goal.create", undefined],
      ["get_goal", "goal.get", undefined],
      ["update_goal", "goal.update", undefined],
    ],
  );
  assert.match(h.systemPrompt, /exec_command/);
  assert.deepEqual(h.context.map((c) => c.slot), [
    "developer",
    "developer",
    "developer",
    "user_item",
    "user_item",
  ]);
  assert.equal(h.tools.find((t) => t.capability === "fs.apply_patch")?.args.input, "patch");
});

Deno.test("loadHarness() prefers the user folder and lists ids of both", async () => {
  const root = await Deno.makeTempDir();
  try {
    await writeHarness(`${root}/builtin`, "t", BASE_SPEC);
    await writeHarness(`${root}/user`, "t", BASE_SPEC.replace('label = "Test"', 'label = "Mine"'));
    await writeHarness(`${root}/user`, "u", BASE_SPEC.replace('id = "t"', 'id = "u"'));
    const dirs = { builtinDir: `${root}/builtin`, userDir: `${root}/user` };
    assert.equal((await loadHarness("t", dirs)).label, "Mine");
    assert.deepEqual(await listHarnessIds(dirs), ["t", "u"]);
    assert.equal((await loadHarness("t", { builtinDir: `${root}/builtin` })).label, "Test");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("userHarnessWarnings() names each broken user harness but the one in use", async () => {
  const root = await Deno.makeTempDir();
  try {
    await writeHarness(root, "t", BASE_SPEC);
    await writeHarness(root, "u", BASE_SPEC.replace('id = "t"', 'id = "u"\nbogus = 1'));
    await writeHarness(root, "v", "id = [\n");
    const warnings = await userHarnessWarnings(root, "v");
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0],
      /^Skipping the harness "u" in .*: Invalid harness spec .*bogus.*\(Remove the key/,
    );
    assert.doesNotMatch(warnings[0], /\.ts/, "no hint points at our source files");
    const [other] = await userHarnessWarnings(root, "u");
    assert.match(
      other,
      /^Skipping the harness "v" in .*: Cannot parse ".*\/v\/harness\.toml" at line 2/,
    );
    assert.match(other, /\(Fix the TOML syntax at line 2; strings need quotes/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("loadHarness() names the available ids for an unknown harness", async () => {
  await assert.rejects(
    () => loadHarness("nope", { builtinDir: BUILTIN }),
    (err) =>
      err instanceof HarnessError && err.message === 'Unknown harness "nope"' &&
      /native/.test(err.hint ?? ""),
  );
  await assert.rejects(() => loadHarness("../native", { builtinDir: BUILTIN }), HarnessError);
});

/** Loads the `t` harness with one edit applied and returns the HarnessError it throws. */
async function brokenLoad(
  edit: { spec?: (s: string) => string; files?: Record<string, string | undefined> },
): Promise<HarnessError> {
  const root = await Deno.makeTempDir();
  try {
    const files = Object.fromEntries(
      Object.entries({ ...BASE_FILES, ...edit.files }).filter(([, v]) => v !== undefined),
    ) as Record<string, string>;
    const dir = await writeHarness(root, "t", (edit.spec ?? ((s) => s))(BASE_SPEC), files);
    await loadHarnessDir(dir);
  } catch (err) {
    if (err instanceof HarnessError) return err;
    throw err;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
  throw new Error("expected a HarnessError");
}

Deno.test("loadHarnessDir() accepts the valid test spec", async () => {
  const root = await Deno.makeTempDir();
  try {
    const h = await loadHarnessDir(await writeHarness(root, "t", BASE_SPEC));
    assert.deepEqual(h.tools[0].args, { command: "command", dir: "cwd", note: "" });
    assert.deepEqual(h.match, {
      models: [],
      providers: [],
      baseUrls: [],
      wireApis: [],
      priority: 0,
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

const CASES: Array<{
  what: string;
  edit: Parameters<typeof brokenLoad>[0];
  message: RegExp;
  hint?: RegExp;
}> = [
  {
    what: "a TOML syntax error",
    edit: { spec: (s) => s + "\nbroken = \n" },
    message: /^Cannot parse ".*t\/harness\.toml"/,
  },
  {
    what: "an unknown top-level key",
    edit: { spec: (s) => s.replace("label =", 'colour = "red"\nlabel =') },
    message: /harness\.toml": unknown key "colour"/,
    hint: /spelling/,
  },
  {
    what: "a bad enum value",
    edit: { spec: (s) => s.replace('"none"', '"some"') },
    message: /key "reasoning_replay"/,
  },
  {
    what: "an id that differs from the folder",
    edit: { spec: (s) => s.replace('id = "t"', 'id = "other"') },
    message: /key "id": "other" does not match the folder name/,
  },
  {
    what: "a missing system prompt file",
    edit: { files: { "prompts/system.md": undefined } },
    message: /key "system_prompt": cannot read ".*system\.md"/,
  },
  {
    what: "an unknown prompt variable",
    edit: { files: { "prompts/system.md": "Hi\n{{cwd}} {{weather}}" } },
    message: /system\.md" at line 2: unknown variable "\{\{weather\}\}"/,
    hint: /\{\{git_status\}\}/,
  },
  {
    what: "an unknown error template placeholder",
    edit: { spec: (s) => s.replace("{hint}", "{hnit}") },
    message: /key "error_template": unknown placeholder "\{hnit\}"/,
  },
  {
    what: "an unknown capability id",
    edit: { spec: (s) => s.replace('"shell.run"', '"shell.runn"') },
    message: /key "tools\[0\]\.capability": unknown capability "shell\.runn"/,
    hint: /shell\.run, fs\.apply_patch, plan\.update/,
  },
  {
    what: "a missing declaration file",
    edit: { files: { "tools/run.json": undefined } },
    message: /key "tools\[0\]\.declaration": cannot read ".*run\.json"/,
  },
  {
    what: "a declaration that is not valid JSON",
    edit: { files: { "tools/run.json": "{ name: run }" } },
    message: /^Invalid tool declaration ".*run\.json": /,
    hint: /JSON syntax/,
  },
  {
    what: "a declaration without parameters",
    edit: { files: { "tools/run.json": JSON.stringify({ name: "run", description: "d" }) } },
    message: /run\.json": missing key "parameters"/,
  },
  {
    what: "an args key that the declaration does not have",
    edit: { spec: (s) => s.replace('note = ""', 'note = "", timeout = "timeout_ms"') },
    message: /key "tools\[0\]\.args\.timeout": "timeout" is not a parameter of tool "run"/,
    hint: /command, dir, note/,
  },
  {
    what: "an args value that is not a capability field",
    edit: { spec: (s) => s.replace('dir = "cwd"', 'dir = "directory"') },
    message:
      /key "tools\[0\]\.args\.dir": "directory" is not an input field of capability "shell\.run"/,
    hint: /command, cwd, timeout_ms/,
  },
  {
    what: "a declared parameter left unmapped",
    edit: { spec: (s) => s.replace(', note = ""', "") },
    message: /key "tools\[0\]\.args": parameter "note" of tool "run" is not mapped/,
    hint: /note = ""/,
  },
  {
    what: "a required capability field that no argument reaches",
    edit: { spec: (s) => s.replace('command = "command"', 'command = ""') },
    message: /required field "command" of capability "shell\.run" is not reachable/,
  },
  {
    what: "a fixed argument that is not a capability field",
    edit: { spec: (s) => s.replace("result =", "fixed_args = { colour = 1 }\nresult =") },
    message: /key "tools\[0\]\.fixed_args\.colour"/,
  },
  {
    what: "a fixed argument of the wrong type",
    edit: { spec: (s) => s.replace("result =", 'fixed_args = { login = "yes" }\nresult =') },
    message: /fixed_args\.login": value "yes" is not valid for "login"/,
  },
  {
    what: "two wire arguments for one field",
    edit: { spec: (s) => s.replace('note = ""', 'note = "command"') },
    message: /args\.note": field "command" is already set by args\.command/,
  },
  {
    what: "a tool declared twice",
    edit: {
      spec: (s) => s + s.slice(s.indexOf("[[tools]]")),
    },
    message: /key "tools\[1\]\.declaration": tool "run" is declared twice/,
  },
];

for (const c of CASES) {
  Deno.test(`loadHarnessDir() names file, key and fix for ${c.what}`, async () => {
    const err = await brokenLoad(c.edit);
    assert.match(err.message, c.message);
    assert.ok(err.hint, "every spec error carries a hint");
    if (c.hint) assert.match(err.hint, c.hint);
  });
}
