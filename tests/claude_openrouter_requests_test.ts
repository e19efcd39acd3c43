import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openSession } from "../lib/session/open.ts";
import { type RecordedRequest, startFakeProvider } from "./fake_provider/server.ts";

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
const GIT_ENV = {
  GIT_AUTHOR_NAME: "Ada",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_AUTHOR_DATE: "2026-11-30T12:00:00Z",
  GIT_COMMITTER_NAME: "Ada",
  GIT_COMMITTER_EMAIL: "ada@example.com",
  GIT_COMMITTER_DATE: "2026-11-30T12:00:00Z",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};
type Json = Record<string, unknown>;

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", { args, cwd, env: GIT_ENV, stderr: "piped" }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

/** The requests of one turn: a tool call with reasoning, then text. */
async function openRouterTurn(root: string): Promise<{ requests: RecordedRequest[]; id: string }> {
  await using fake = startFakeProvider([
    {
      reply: {
        thinking: "The tree first.",
        tool_calls: [{ name: "Bash", args: { command: "ls" } }],
      },
    },
    { reply: { text: "Done." } },
  ], { chatReasoningField: "reasoning_details" });
  const cwd = join(root, "ws");
  const home = join(root, "home");
  await Deno.mkdir(cwd);
  await Deno.mkdir(home);
  await Deno.writeTextFile(join(cwd, "README.md"), "# habits\n");
  await git(cwd, "init", "-q", "-b", "main");
  await git(cwd, "add", ".");
  await git(cwd, "commit", "-q", "-m", "Start the habit tracker");
  await Deno.writeTextFile(join(cwd, "AGENTS.md"), "Run the tests with `make test`.\n");
  await Deno.writeTextFile(
    join(home, "config.toml"),
    `model = "${MODEL}"\nmodel_provider = "openrouter"\nharness = "claude-code"\n` +
      `[model_providers.openrouter]\nbase_url = "${fake.baseUrl}"\n`,
  );
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: root,
    SHELL: "/bin/bash",
    OPENINTERPRETER_HOME: home,
    OPENINTERPRETER_TEST_TIME: "2026-12-01 09:30:00",
    OPENROUTER_API_KEY: "k",
    ...GIT_ENV,
  };
  await using session = await openSession(
    { cwd, sandbox: "danger-full-access", approval: "never" },
    { onEvent: () => {} },
    { env },
  );
  const outcome = await session.prompt("fix the failing test", new AbortController().signal);
  assert.equal(outcome.status, "completed", JSON.stringify(fake.failures));
  return { requests: fake.requests.slice(0, 2), id: session.status().sessionId ?? "" };
}

function normalize(value: unknown, replace: (text: string) => string): unknown {
  if (typeof value === "string") {
    const text = replace(value);
    if (text.length <= 1500) return text;
    const digest = createHash("sha256").update(text).digest("hex").slice(0, 12);
    return `${text.slice(0, 300)}… [${text.length} chars, sha256 ${digest}]`;
  }
  if (Array.isArray(value)) return value.map((v) => normalize(v, replace));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v, replace)]));
  }
  return value;
}

Deno.test("claude-code on OpenRouter sends the requests in chat.openrouter.requests.json", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_openrouter_" }));
  try {
    const { requests, id } = await openRouterTurn(root);
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
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

function timeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

Deno.test("zcode on a Messages endpoint without system messages folds its skills list before the prompt", async () => {
  await using fake = startFakeProvider([{ reply: { text: "OK" } }]);
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_zcode_fold_" }));
  try {
    const [cwd, home] = [join(root, "ws"), join(root, "home")];
    await Deno.mkdir(join(cwd, ".agents", "skills", "deploy"), { recursive: true });
    await Deno.mkdir(home);
    await git(cwd, "init", "-q", "-b", "main");
    await Deno.writeTextFile(
      join(cwd, ".agents", "skills", "deploy", "SKILL.md"),
      "---\nname: deploy\ndescription: Ship the app\n---\nRun make deploy.\n",
    );
    await Deno.writeTextFile(
      join(home, "config.toml"),
      `model = "glm-4.6"\nmodel_provider = "fake"\nharness = "zcode"\n[model_providers.fake]\n` +
        `name = "Fake"\nbase_url = "${fake.origin}"\nwire_api = "messages"\nenv_key = "FAKE_KEY"\n`,
    );
    const env = { PATH: Deno.env.get("PATH") ?? "", HOME: root, OPENINTERPRETER_HOME: home };
    await using session = await openSession(
      { cwd, sandbox: "read-only", approval: "never" },
      { onEvent: () => {} },
      { env: { ...env, FAKE_KEY: "k", ...GIT_ENV } },
    );
    await session.prompt("say OK", new AbortController().signal);
    const messages =
      (fake.requests[0].body as { messages: Array<{ role: string; content: Json[] }> })
        .messages;
    assert.deepEqual(messages.map((m) => m.role), ["user"]);
    const texts = messages[0].content.map((p) => String(p.text));
    assert.equal(texts.at(-1), "say OK", "the user's words end the message");
    const skills = texts.find((t) => t.includes("deploy: Ship the app"));
    assert.match(skills ?? "", /^<system-reminder>\n[\s\S]*\n<\/system-reminder>$/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
