import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { renderResult, resolveCall } from "../lib/harness/call.ts";
import { loadHarness } from "../lib/harness/load.ts";
import { changesAllowed, toolsForSession } from "../lib/harness/session_tools.ts";
import { sourceToolName } from "../lib/loop/tool_sources.ts";
import { layoutRequests } from "./_layout_session.ts";

/** The gemini-cli harness (issue 31 item 1): tool sets, session context, MCP names, results. */

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));
const gemini = await loadHarness("gemini-cli", { builtinDir: HARNESSES });
const names = (h: typeof gemini) => h.tools.map((t) => t.declaration.name);

const HEADLESS = [
  "update_topic",
  "list_directory",
  "read_file",
  "grep_search",
  "glob",
  "enter_plan_mode",
];

Deno.test("gemini-cli leaves out its tools that change things where nobody could approve them", () => {
  assert.equal(changesAllowed("workspace-write", "on-request", false), true);
  assert.equal(changesAllowed("workspace-write", "untrusted", true), true);
  assert.equal(changesAllowed("workspace-write", "untrusted", false), false);
  assert.equal(changesAllowed("read-only", "never", true), false);
  const facts = { mcpServers: false, webSearch: true };
  const full = names(toolsForSession(gemini, { ...facts, changesAllowed: true }));
  assert.equal(full.length, 15, "every tool of the yolo capture");
  const headless = names(toolsForSession(gemini, { ...facts, changesAllowed: false }));
  // The default capture's 8: the headless set with web search (left out without a backend).
  assert.deepEqual(headless, [
    ...HEADLESS.slice(0, 5),
    "google_web_search",
    "enter_plan_mode",
    "invoke_agent",
  ]);
  const offline = names(
    toolsForSession(gemini, { ...facts, webSearch: false, changesAllowed: false }),
  );
  assert.deepEqual(offline, [...HEADLESS, "invoke_agent"]);
});

Deno.test("a headless gemini-cli session under untrusted approval sends the headless tool set", async () => {
  // Nobody can approve a plan either, so enter_plan_mode stays out too (harness.toml).
  const { bodies } = await layoutRequests({
    harness: "gemini-cli",
    wire: "chat",
    model: "gemini-3.8-flash",
    approval: "untrusted",
    replies: [{ text: "OK" }],
  });
  const tools = (bodies[0].tools as { function: { name: string } }[]).map((t) => t.function.name);
  assert.deepEqual(tools, [
    "update_topic",
    "list_directory",
    "read_file",
    "grep_search",
    "glob",
    "invoke_agent",
  ]);
});

type Part = { type: string; text: string };

Deno.test("gemini-cli's first user message is the <session_context> part, then the prompt", async () => {
  const { bodies, cwd } = await layoutRequests({
    harness: "gemini-cli",
    wire: "chat",
    model: "gemini-3.8-flash",
    files: { "GEMINI.md": "Use tabs.\n", "src/app.py": "print(1)\n" },
    replies: [{ text: "OK" }],
    prompt: "list the files",
  });
  const messages = bodies[0].messages as { role: string; content: Part[] | string }[];
  const user = messages.find((m) => m.role === "user")!;
  const parts = user.content as Part[];
  assert.deepEqual(parts.map((p) => p.text.split("\n")[0]), [
    "<session_context>",
    "list the files",
  ]);
  const context = parts[0].text;
  assert.match(context, /Today is Tuesday, December 1, 2026\./);
  assert.ok(context.includes(`  - ${cwd}\n`), context);
  assert.ok(context.includes(`${cwd}/\n├───AGENTS.md\n├───GEMINI.md\n├───README.md\n`), context);
  assert.ok(context.includes("└───src/\n    └───app.py"), context);
  assert.ok(
    context.includes(
      `<loaded_context>\n<project_context>\n--- Context from: ${cwd}/GEMINI.md ---\nUse tabs.\n` +
        `--- End of Context from: ${cwd}/GEMINI.md ---\n--- Context from: ${cwd}/AGENTS.md ---\n` +
        "Run `make test`.\n" + `--- End of Context from: ${cwd}/AGENTS.md ---\n` +
        "</project_context>\n</loaded_context>\n</session_context>",
    ),
    context,
  );
  const system = messages.find((m) => m.role === "system")!.content;
  assert.ok(String(JSON.stringify(system)).includes("# Git repository"));
});

Deno.test("gemini-cli's session context has no <loaded_context> without instruction files", async () => {
  const { bodies } = await layoutRequests({
    harness: "gemini-cli",
    wire: "chat",
    model: "gemini-3.8-flash",
    files: { "AGENTS.md": "" },
    replies: [{ text: "OK" }],
  });
  const user = (bodies[0].messages as { role: string; content: Part[] }[])
    .find((m) => m.role === "user")!;
  assert.ok(!user.content[0].text.includes("<loaded_context>"));
  assert.ok(user.content[0].text.endsWith("\n</session_context>"));
});

Deno.test("gemini-cli names MCP tools mcp_<server>_<tool>", () => {
  assert.equal(sourceToolName(gemini, "srv", "echo_text"), "mcp_srv_echo_text");
});

Deno.test("gemini-cli words listings, grep matches and shell output in Gemini CLI's layouts", () => {
  const tool = (name: string, args: Record<string, unknown>) =>
    resolveCall(gemini, { name, args }).tool;
  const listing = renderResult(tool("list_directory", { dir_path: "." }), {
    root: ".",
    entries: [
      { path: "README.md", kind: "file", size: 9 },
      { path: "src", kind: "dir", size: null },
    ],
    truncated: false,
  });
  assert.equal(listing, "Directory listing for .:\n[DIR] src\nREADME.md (9 bytes)");
  const grep = renderResult(tool("grep_search", { pattern: "x" }), {
    root: ".",
    mode: "content",
    files: ["a.py", "b.py"],
    lines: [
      { path: "a.py", line: 1, text: "x = 1", match: true },
      { path: "a.py", line: 2, text: "y", match: false },
      { path: "b.py", line: 7, text: "x()", match: true },
    ],
    counts: [],
    truncated: false,
  });
  assert.equal(
    grep,
    "Found 2 match(es) in .:\n---\nFile: a.py\nL1: x = 1\nL2- y\n---\nFile: b.py\nL7: x()\n---",
  );
  const shell = renderResult(tool("run_shell_command", { command: "false" }), {
    command: "false",
    cwd: ".",
    durationMs: 5,
    exitCode: 1,
    output: "",
    timedOut: false,
    timeoutMs: 120000,
    truncated: false,
  });
  assert.equal(shell, "<untrusted_context>\nOutput: (empty)\nExit Code: 1\n</untrusted_context>");
});

Deno.test("gemini-cli sends Gemini CLI's generationConfig on the gemini wire, without thinking for Gemma", async () => {
  const config = async (model: string) => {
    const { bodies } = await layoutRequests({
      harness: "gemini-cli",
      wire: "gemini",
      model,
      replies: [{ text: "OK" }],
    });
    return bodies[0].generationConfig;
  };
  assert.deepEqual(await config("gemini-3.8-flash"), {
    temperature: 1,
    topP: 0.95,
    topK: 64,
    thinkingConfig: { includeThoughts: true, thinkingLevel: "HIGH" },
  });
  assert.deepEqual(await config("gemma-3-27b-it"), { temperature: 1, topP: 0.95, topK: 64 });
});

Deno.test("gemini-cli asks Gemini for high reasoning effort over Chat, and Gemma for none", async () => {
  const effort = async (model: string) => {
    const { bodies } = await layoutRequests({
      harness: "gemini-cli",
      wire: "chat",
      model,
      replies: [{ text: "OK" }],
    });
    const { temperature, top_p, reasoning_effort } = bodies[0];
    return { temperature, top_p, reasoning_effort };
  };
  assert.deepEqual(await effort("google/gemini-3.8-flash"), {
    temperature: 1,
    top_p: 0.95,
    reasoning_effort: "high",
  });
  assert.deepEqual(await effort("gemma3:27b"), {
    temperature: 1,
    top_p: 0.95,
    reasoning_effort: undefined,
  });
});
