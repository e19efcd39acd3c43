import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { openSession } from "../lib/session/open.ts";
import { type RecordedRequest, startFakeProvider } from "./fake_provider/server.ts";
import { normalize, requestWorkspace } from "./_request_workspace.ts";

/**
 * Claude Code on a provider without system messages (issue 31 item 3): the first and second
 * request claude-code sends through the built-in `openrouter` provider (its base URL pointed at
 * the scripted provider, which answers in OpenRouter's `reasoning_details` form), golden in
 * `tests/golden/claude-code/chat.openrouter.requests.json` (`UPDATE_GOLDEN=1` rewrites it).
 * Tools are listed by name, long strings shortened to their start and a digest, paths and ids
 * replaced by placeholders, as in tests/harness_requests_test.ts. Also zcode's skills list on a
 * Messages endpoint without system messages.
 */

const GOLDEN = fileURLToPath(
  new URL("./golden/claude-code/chat.openrouter.requests.json", import.meta.url),
);
const MODEL = "anthropic/claude-opus-5-5";
const SKILL = "---\nname: deploy\ndescription: Ship the app\n---\nRun make deploy.\n";
type Json = Record<string, unknown>;

/** The requests of one turn: a tool call with reasoning, then text. */
async function openRouterTurn(): Promise<
  { requests: RecordedRequest[]; id: string; root: string }
> {
  await using fake = startFakeProvider([
    {
      reply: {
        thinking: "The tree first.",
        tool_calls: [{ name: "Bash", args: { command: "ls" } }],
      },
    },
    { reply: { text: "Done." } },
  ], { chatReasoningField: "reasoning_details" });
  await using ws = await requestWorkspace({
    prefix: "oi_openrouter_",
    files: { "README.md": "# habits\n" },
    agents: "Run the tests with `make test`.\n",
    model: MODEL,
    harness: "claude-code",
    baseUrl: fake.baseUrl,
    provider: { id: "openrouter" },
    env: { NO_COLOR: undefined, OPENROUTER_API_KEY: "k" },
  });
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access", approval: "never" },
    { onEvent: () => {} },
    { env: ws.env },
  );
  const outcome = await session.prompt("fix the failing test", new AbortController().signal);
  assert.equal(outcome.status, "completed", JSON.stringify(fake.failures));
  const id = session.status().sessionId ?? "";
  return { requests: fake.requests.slice(0, 2), id, root: ws.root };
}

Deno.test("claude-code on OpenRouter sends the requests in chat.openrouter.requests.json", async () => {
  const { requests, id, root } = await openRouterTurn();
  const replace = (text: string) => {
    let out = text.replaceAll(root, "<root>").replaceAll(id, "<session>");
    for (const [fact, name] of [[Deno.osRelease(), "os-release"], [timeZone(), "timezone"]]) {
      out = out.replaceAll(fact, `<${name}>`);
    }
    return out.replace(
      /\n[0-9a-f]{7} Start the habit tracker/,
      "\n<commit> Start the habit tracker",
    );
  };
  const [first, second] = requests.map((r) => {
    const body = r.body as Json;
    const tools = (body.tools as Json[]).map((t) => (t.function as Json).name);
    return normalize({ ...body, tools }, replace);
  });
  const text = `${JSON.stringify({ model: MODEL, first, second }, null, 2)}\n`;
  if (Deno.env.get("UPDATE_GOLDEN") === "1") await Deno.writeTextFile(GOLDEN, text);
  const golden = await Deno.readTextFile(GOLDEN).catch(() => "");
  assert.equal(
    text,
    golden,
    "chat.openrouter.requests.json is out of date: check, then UPDATE_GOLDEN=1",
  );
});

function timeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

Deno.test("zcode on a Messages endpoint without system messages folds its skills list before the prompt", async () => {
  await using fake = startFakeProvider([{ reply: { text: "OK" } }]);
  await using ws = await requestWorkspace({
    prefix: "oi_zcode_fold_",
    files: { ".agents/skills/deploy/SKILL.md": SKILL },
    commit: false,
    model: "glm-4.6",
    harness: "zcode",
    wire: "messages",
    baseUrl: fake.origin,
    provider: { id: "fake", name: "Fake", envKey: "FAKE_KEY" },
    env: { SHELL: undefined, OPENINTERPRETER_TEST_TIME: undefined, NO_COLOR: undefined },
  });
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "read-only", approval: "never" },
    { onEvent: () => {} },
    { env: ws.env },
  );
  await session.prompt("say OK", new AbortController().signal);
  const messages = (fake.requests[0].body as { messages: Array<{ role: string; content: Json[] }> })
    .messages;
  assert.deepEqual(messages.map((m) => m.role), ["user"]);
  const texts = messages[0].content.map((p) => String(p.text));
  assert.equal(texts.at(-1), "say OK", "the user's words end the message");
  const skills = texts.find((t) => t.includes("deploy: Ship the app"));
  assert.match(skills ?? "", /^<system-reminder>\n[\s\S]*\n<\/system-reminder>$/);
});
