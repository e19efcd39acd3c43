import assert from "node:assert/strict";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { renderToolError } from "../lib/harness/call.ts";
import { loadHarness } from "../lib/harness/load.ts";
import { ToolError } from "../lib/errors.ts";
import { freshTerminalScreen } from "../lib/workspace/terminal_screen.ts";
import { TERMINAL_RESOURCE, terminalKeys } from "../lib/tools/terminal_keys.ts";
import { tempWorkspace } from "../lib/tools/_test_workspace.ts";
import { need } from "../sandbox/_test_requires.ts";
import { sourceToolName } from "../lib/loop/tool_sources.ts";
import { layoutRequests, stringsOf } from "./_layout_session.ts";

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));

/** Layouts of issue 31 item 6 and the fixed clock of item 7, in real requests. */

const MONTHS =
  "January|February|March|April|May|June|July|August|September|October|November|December";

Deno.test("qwen-code: the fixed clock in Z form gives one date in every date of the request", async () => {
  const { bodies } = await layoutRequests({
    harness: "qwen-code",
    wire: "chat",
    model: "qwen3-coder-plus",
    replies: [{ text: "OK" }],
    // Late in the day UTC, so a clock read in another zone or the real clock shows another date.
    env: { OPENINTERPRETER_TEST_TIME: "2026-01-02T23:59:30Z" },
  });
  const text = stringsOf(bodies[0].messages).join("\n");
  const iso = [...new Set(text.match(/\b20\d\d-\d\d-\d\d\b/g) ?? [])];
  const long = [
    ...new Set(text.match(new RegExp(`\\w+day, (?:${MONTHS}) \\d+, \\d{4}`, "g")) ?? []),
  ];
  assert.deepEqual(iso, ["2026-01-02"]);
  assert.deepEqual(long, ["Friday, January 2, 2026"]);
});

Deno.test("opencode: <env> has the workspace root and the date as opencode writes it", async () => {
  const { bodies, cwd } = await layoutRequests({
    harness: "opencode",
    wire: "chat",
    replies: [{ text: "OK" }],
    files: { "src/main.py": "print('hi')\n" },
  });
  const system = String((bodies[0].messages as Array<{ content: string }>)[0].content);
  const env = system.match(/<env>\n[\s\S]*?\n<\/env>/)?.[0] ?? "";
  assert.match(env, new RegExp(`\\n  Workspace root folder: ${cwd}\\n`));
  assert.match(env, /\n {2}Today.s date: Tue Dec 01 2026\n/);
  assert.deepEqual(env.split("\n").map((l) => l.split(":")[0].trim()), [
    "<env>",
    "Working directory",
    "Workspace root folder",
    "Is directory a git repo",
    "Platform",
    "Today's date",
    "</env>",
  ]);
});

Deno.test("opencode names MCP tools <server>_<tool>; the others keep mcp__<server>__<tool>", async () => {
  const opencode = await loadHarness("opencode", { builtinDir: HARNESSES });
  assert.equal(sourceToolName(opencode, "files", "read_text"), "files_read_text");
  const claude = await loadHarness("claude-code", { builtinDir: HARNESSES });
  assert.equal(sourceToolName(claude, "files", "read_text"), "mcp__files__read_text");
});

type Msg = { role: string; content?: unknown; tool_calls?: unknown[]; reasoning_content?: string };

Deno.test("kimi-code replays a reply's text and its tool calls as two assistant messages", async () => {
  const { bodies } = await layoutRequests({
    harness: "kimi-code",
    wire: "chat",
    model: "kimi-k2-thinking",
    replies: [
      {
        thinking: "Check first.",
        text: "Let me look.",
        tool_calls: [{ id: "call_1", name: "Bash", args: { command: "true" } }],
      },
      { text: "Done." },
    ],
  });
  const messages = (bodies[1].messages as Msg[]).filter((m) => m.role !== "system");
  const at = messages.findIndex((m) => m.role === "assistant");
  const [text, calls, result] = messages.slice(at, at + 3);
  assert.equal(text.role, "assistant");
  assert.equal(text.content, "Let me look.");
  assert.equal(text.tool_calls, undefined);
  assert.equal(text.reasoning_content, "Check first.");
  assert.equal(calls.role, "assistant");
  assert.equal(calls.content, null);
  assert.equal(calls.tool_calls?.length, 1);
  assert.equal(result.role, "tool");
});

Deno.test("qwen-code sends a tool result as a list of one text part, with Qwen Code's shell lines", async () => {
  const { bodies } = await layoutRequests({
    harness: "qwen-code",
    wire: "chat",
    model: "qwen3-coder-plus",
    replies: [
      { tool_calls: [{ id: "call_1", name: "run_shell_command", args: { command: "echo hi" } }] },
      { text: "Done." },
    ],
  });
  const tool = (bodies[1].messages as Msg[]).find((m) => m.role === "tool");
  assert.deepEqual(tool?.content, [{
    type: "text",
    text: "Command: echo hi\nDirectory: (root)\nOutput: hi\n\nError: (none)\nExit Code: 0\n" +
      "Signal: (none)\nProcess Group PGID: (none)",
  }]);
});

Deno.test("kimi-code keeps an error's hint inside <system>ERROR: …</system>", async () => {
  const h = await loadHarness("kimi-code", { builtinDir: HARNESSES });
  assert.equal(
    renderToolError(h, new ToolError("no such file: a.txt", "Check the path")),
    "<system>ERROR: no such file: a.txt\nCheck the path</system>",
  );
  assert.equal(
    renderToolError(h, new ToolError("no such file: a.txt")),
    "<system>ERROR: no such file: a.txt</system>",
  );
});

Deno.test("native sends the sandbox text once, and Codex's <filesystem> roots in <environment_context>", async () => {
  const { bodies, cwd } = await layoutRequests({
    harness: "native",
    wire: "responses",
    model: "gpt-5-codex",
    replies: [{ text: "OK" }],
  });
  const texts = stringsOf(bodies[0].input);
  const count = (needle: string) => texts.join("\n").split(needle).length - 1;
  assert.equal(count("nobody can approve anything"), 1);
  const env = texts.find((t) => t.startsWith("<environment_context>")) ?? "";
  assert.doesNotMatch(env, /<sandbox>/);
  assert.ok(
    env.includes(`<filesystem><workspace_roots><root>${cwd}</root></workspace_roots></filesystem>`),
  );
});

Deno.test("pi sends one system block: instructions, # Project Context, skills, then date and folder", async () => {
  const { bodies, cwd } = await layoutRequests({
    harness: "pi",
    wire: "messages",
    model: "claude-sonnet-4-5",
    replies: [{ text: "OK" }],
    files: {
      ".agents/skills/lint/SKILL.md": "---\nname: lint\ndescription: Lint the code\n---\nRun it.\n",
    },
  });
  const system = bodies[0].system as Array<{ text: string }>;
  assert.equal(system.length, 1);
  const text = system[0].text;
  const at = (needle: string) => {
    const i = text.indexOf(needle);
    assert.ok(i >= 0, `${needle} is in the system text`);
    return i;
  };
  const order = [
    at("\n\n# Project Context\n\n"),
    at(`\n\n## ${cwd}/AGENTS.md\n\nRun \`make test\`.`),
    at("<available_skills>"),
    at(`\nCurrent date: 2026-12-01\nCurrent working directory: ${cwd}`),
  ];
  assert.deepEqual(order, [...order].sort((a, b) => a - b));
  assert.ok(text.endsWith(`Current working directory: ${cwd}`));
  assert.doesNotMatch(text, /<project_instructions/);
});

Deno.test("terminus-2 opens with the instructions, the task and the terminal's screen", async () => {
  const { bodies, cwd } = await layoutRequests({
    harness: "terminus-2",
    wire: "chat",
    replies: [{ text: "not json" }, { text: "still not json" }, { text: "no" }, { text: "no" }],
    prompt: "fix the test",
  });
  const first = (bodies[0].messages as Msg[])[0];
  assert.equal(first.role, "user");
  const text = String(first.content);
  assert.ok(text.indexOf("# Reply format") < text.indexOf("Task Description:"));
  assert.match(text, /Task Description:\n+fix the test\n\nCurrent terminal state:\n(\S+)$/);
  const screen = text.match(/Current terminal state:\n(\S+)$/)![1];
  assert.equal(screen, freshTerminalScreen(cwd, { HOME: dirname(cwd) }));
  assert.match(screen, /^\S+@\S+:\S+#$/);
});

const TMUX = await need("tmux");

Deno.test({
  name: "the screen terminus-2 shows first is what a fresh terminal shows" + TMUX.note,
  ignore: TMUX.ignore,
  async fn() {
    await using ws = await tempWorkspace({});
    try {
      const fresh = await terminalKeys.run({ keystrokes: "", duration_s: 0 }, ws.ctx);
      assert.equal(fresh.screen, freshTerminalScreen(ws.ctx.cwd, ws.ctx.env));
    } finally {
      await ws.ctx.resources.get(TERMINAL_RESOURCE)?.[Symbol.asyncDispose]();
    }
  },
});
