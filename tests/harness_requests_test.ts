import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { listHarnessIds, loadHarness } from "../lib/harness/load.ts";
import { openSession } from "../lib/session/open.ts";
import type { WireApi } from "../lib/providers/types.ts";
import { startFakeProvider } from "./fake_provider/server.ts";
import { freshTerminalScreen } from "../lib/workspace/terminal_screen.ts";
import { GIT_ENV, normalize, omit, requestWorkspace } from "./_request_workspace.ts";

/**
 * Golden request bodies: the first and second request each harness sends on each of its wires,
 * in `tests/golden/<harness>/<wire>.requests.json`, from a real session against the scripted
 * provider. The first reply carries reasoning (a signature, encrypted content or
 * `reasoning_content`, by wire) and a call to a tool no harness has, so the second body shows
 * the harness's reasoning replay and its unknown-tool text. Each file's `_source` names the
 * vendor capture or reference section the request follows. Tools are listed by name (their
 * schemas are in `<wire>.tools.json`); strings over 1,500 characters are shortened to their start
 * and a digest; paths, the session id and machine facts are replaced by placeholders.
 * `UPDATE_GOLDEN=1` rewrites the files.
 */

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));
const GOLDEN = fileURLToPath(new URL("./golden/", import.meta.url));
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";
type Json = Record<string, unknown>;

/** What each harness's requests follow, and the model its golden files are made with. */
const SOURCES: Record<string, { source: string; model: string }> = {
  "claude-code": {
    source: "request-shapes.md §1 (capture: claude 2.1.332); harnesses.md §5.1",
    model: "claude-opus-5-5",
  },
  "claude-code-bare": {
    source: "request-shapes.md §1.6; harnesses.md §5.1-5.3",
    model: "claude-sonnet-4-5",
  },
  zcode: { source: "request-shapes.md §2; harnesses.md §6", model: "glm-4.6" },
  native: { source: "request-shapes.md §3 (capture: codex 0.171.0)", model: "gpt-5-codex" },
  "qwen-code": {
    source: "request-shapes.md §4 (capture: qwen 0.24.4)",
    model: "qwen3-coder-plus",
  },
  opencode: { source: "request-shapes.md §5 (capture: opencode 1.18.33)", model: "test-model" },
  pi: { source: "request-shapes.md §6 (capture: pi 0.73.1)", model: "claude-sonnet-4-5" },
  "kimi-code": { source: "request-shapes.md §7; harnesses.md §7", model: "kimi-k2-thinking" },
  "kimi-cli": { source: "request-shapes.md §8; harnesses.md §8", model: "kimi-k2-thinking" },
  "deepseek-tui": { source: "request-shapes.md §9; harnesses.md §10", model: "deepseek-reasoner" },
  "swe-agent": { source: "request-shapes.md §10; harnesses.md §12", model: "test-model" },
  "mini-swe-agent": { source: "request-shapes.md §11; harnesses.md §11", model: "test-model" },
  "terminus-2": { source: "request-shapes.md §12; harnesses.md §13", model: "test-model" },
  minimal: { source: "harnesses.md §14", model: "test-model" },
  "gemini-cli": {
    source: "capture: gemini-cli 0.61.0 (harnesses/gemini-cli/topics.toml)",
    model: "gemini-3.8-flash",
  },
};

/** A repository with one commit and one change, and a config home naming the fake provider. */
function workspace(baseUrl: string, harness: string, wire: WireApi, model: string) {
  return requestWorkspace({
    prefix: "oi_requests_",
    files: { "README.md": "# habits\n", "src/main.py": "print('hi')\n" },
    gitConfig: { "user.name": "Ada" },
    agents: "Run the tests with `make test`.\n",
    model,
    harness,
    wire,
    baseUrl,
    gitEnv: omit(GIT_ENV, "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"),
  });
}

/** The first and second request bodies, with their harness headers, of one short turn. */
async function requests(harness: string, wire: WireApi, model: string, textProtocol: boolean) {
  // A text-protocol harness reads commands from the reply text, so its first reply is text.
  const action = textProtocol
    ? { text: "Let me look." }
    : { tool_calls: [{ id: "call_1", name: "no_such_tool", args: { path: "." } }] };
  await using fake = startFakeProvider([
    { reply: { thinking: "The tree first.", ...action } },
    { reply: { text: "Done." } },
  ]);
  await using ws = await workspace(
    wire === "messages" ? fake.origin : fake.baseUrl,
    harness,
    wire,
    model,
  );
  let sessionId = "";
  {
    await using session = await openSession(
      { cwd: ws.cwd, sandbox: "danger-full-access", approval: "never" },
      { onEvent: () => {} },
      { env: ws.env },
    );
    sessionId = session.status().sessionId ?? "";
    const outcome = await session.prompt("fix the failing test", new AbortController().signal);
    // A text protocol ends only on its submit command, so its turn runs past the script.
    if (!textProtocol) assert.equal(outcome.status, "completed", JSON.stringify(outcome));
  }
  assert.ok(fake.requests.length >= 2, JSON.stringify(fake.failures));
  const replace = (text: string) => {
    let out = text.replaceAll(ws.root, "<root>");
    if (sessionId) out = out.replaceAll(sessionId, "<session>");
    out = out.replaceAll(osRelease(), "<os-release>");
    // Terminus 2's first screen names this machine's user and host.
    out = out.replaceAll(freshTerminalScreen(ws.cwd, ws.env), "<terminal-screen>");
    out = out.replaceAll(Intl.DateTimeFormat().resolvedOptions().timeZone, "<timezone>");
    return out;
  };
  return fake.requests.slice(0, 2).map((r) => {
    const headers: Json = {};
    for (const name of ["anthropic-beta", "user-agent"]) {
      if (r.headers[name]) headers[name] = r.headers[name];
    }
    return { headers, body: normalize(toolNames(r.body as Json), replace) };
  });
}

function osRelease(): string {
  try {
    return Deno.osRelease();
  } catch {
    return "\0";
  }
}

const SCHEMA_KEYS = ["type", "name", "description", "parameters", "input_schema", "function"];

/**
 * The body with each tool as its name (schemas are golden in `<wire>.tools.json`), or as its
 * name with the keys the harness adds to every tool (`tool_fields`, cache breakpoints).
 */
function toolNames(body: Json): Json {
  if (!Array.isArray(body.tools)) return body;
  const tools = body.tools.map((t: Json) => {
    // Gemini: one entry holding every declaration.
    if (Array.isArray(t.functionDeclarations)) {
      return { functionDeclarations: t.functionDeclarations.map((d: Json) => d.name) };
    }
    // Responses: a namespace of functions (Codex's multi_agent_v1).
    if (t.type === "namespace" && Array.isArray(t.tools)) {
      return { namespace: t.name, tools: t.tools.map((d: Json) => d.name) };
    }
    const fn = (t.function ?? {}) as Json;
    const extra = Object.fromEntries(
      [...Object.entries(t), ...Object.entries(fn)].filter(([k]) => !SCHEMA_KEYS.includes(k)),
    );
    const name = t.name ?? fn.name;
    return Object.keys(extra).length ? { name, ...extra } : name;
  });
  return { ...body, tools };
}

async function checkGolden(file: string, value: unknown): Promise<void> {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const path = join(GOLDEN, file);
  if (UPDATE) {
    await Deno.writeTextFile(path, text);
    return;
  }
  const golden = await Deno.readTextFile(path).catch(() => undefined);
  assert.ok(golden !== undefined, `tests/golden/${file} is missing: run with UPDATE_GOLDEN=1`);
  assert.equal(
    text,
    golden,
    `tests/golden/${file} is out of date: check the change, then run with UPDATE_GOLDEN=1`,
  );
}

for (const id of await listHarnessIds({ builtinDir: HARNESSES })) {
  Deno.test(`harness ${id} sends the requests in tests/golden/${id}/*.requests.json`, async () => {
    const { source, model } = SOURCES[id] ?? { source: "our own harness", model: "test-model" };
    const h = await loadHarness(id, { builtinDir: HARNESSES });
    for (const wire of h.wireApis) {
      const [first, second] = await requests(id, wire, model, h.protocol !== undefined);
      await checkGolden(`${id}/${wire}.requests.json`, { _source: source, model, first, second });
    }
  });
}

Deno.test("every built-in harness names the source its requests follow", async () => {
  for (const id of await listHarnessIds({ builtinDir: HARNESSES })) {
    assert.ok(SOURCES[id], `add harness "${id}" to SOURCES in tests/harness_requests_test.ts`);
  }
});
