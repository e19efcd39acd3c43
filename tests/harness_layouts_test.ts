import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../lib/harness/load.ts";
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
