import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../lib/harness/load.ts";
import { openSession } from "../lib/session/open.ts";
import type { WireApi } from "../lib/providers/types.ts";
import { type RecordedRequest, startFakeProvider } from "./fake_provider/server.ts";

/**
 * Client headers as data (issue 31 item 5): each harness's session and cache-affinity headers go
 * with every request; its vendor's client identifiers (user agent, x-app, originator, the
 * metadata forms) only with `vendor_client_headers = true`. Checked in the fake provider's log of
 * a real session's request.
 */

/** One request of a one-turn session of `harness` on `wire`, with `config` lines added. */
async function firstRequest(
  harness: string,
  wire: WireApi,
  model: string,
  config = "",
): Promise<{ request: RecordedRequest; sessionId: string }> {
  await using fake = startFakeProvider([{ reply: { text: "OK" } }]);
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_headers_" }));
  try {
    const home = join(root, "home");
    await Deno.mkdir(home);
    const init = await new Deno.Command("git", { args: ["init", "-q", root] }).output();
    assert.ok(init.success);
    await Deno.writeTextFile(
      join(home, "config.toml"),
      `model = "${model}"\nmodel_provider = "fake"\nharness = "${harness}"\n${config}\n` +
        `[model_providers.fake]\nname = "Fake"\nwire_api = "${wire}"\nenv_key = "FAKE_KEY"\n` +
        `base_url = "${wire === "messages" ? fake.origin : fake.baseUrl}"\n`,
    );
    const env = { PATH: Deno.env.get("PATH") ?? "", HOME: root, OPENINTERPRETER_HOME: home };
    await using session = await openSession(
      { cwd: root, sandbox: "read-only", approval: "never" },
      { onEvent: () => {} },
      { env: { ...env, FAKE_KEY: "k" } },
    );
    const outcome = await session.prompt("say OK", new AbortController().signal);
    assert.equal(outcome.status, "completed", JSON.stringify(fake.failures));
    return { request: fake.requests[0], sessionId: session.status().sessionId ?? "" };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const VENDOR = "vendor_client_headers = true";
const NODE_ARCH: Record<string, string> = { x86_64: "x64", aarch64: "arm64" };

Deno.test("claude-code sends its session header always, x-app and its user agent on request", async () => {
  const plain = await firstRequest("claude-code", "messages", "claude-opus-5-5");
  const h = plain.request.headers;
  assert.ok(plain.sessionId);
  assert.equal(h["x-claude-code-session-id"], plain.sessionId);
  assert.equal(h["x-app"], undefined);
  assert.equal(h["user-agent"], "interpreter");
  const body = plain.request.body as { metadata: { user_id: string } };
  assert.equal(body.metadata.user_id, plain.sessionId);

  const vendor = await firstRequest("claude-code", "messages", "claude-opus-5-5", VENDOR);
  const v = vendor.request.headers;
  assert.equal(v["x-claude-code-session-id"], vendor.sessionId);
  assert.equal(v["x-app"], "cli");
  assert.equal(v["user-agent"], "claude-cli/2.1.332 (external, sdk-cli)");
  const userId = JSON.parse(
    (vendor.request.body as { metadata: { user_id: string } }).metadata
      .user_id,
  );
  assert.match(userId.device_id, /^[0-9a-f]{64}$/);
  assert.deepEqual({ ...userId, device_id: "" }, {
    device_id: "",
    account_uuid: "",
    session_id: vendor.sessionId,
  });
});

Deno.test("native sends Codex's thread id headers always, originator and client_metadata on request", async () => {
  const plain = await firstRequest("native", "responses", "gpt-5-codex");
  const h = plain.request.headers;
  for (const name of ["session-id", "thread-id", "x-client-request-id"]) {
    assert.equal(h[name], plain.sessionId, name);
  }
  assert.equal(h["x-codex-window-id"], `${plain.sessionId}:0`);
  assert.equal(h.originator, undefined);
  assert.equal((plain.request.body as Record<string, unknown>).client_metadata, undefined);

  const vendor = await firstRequest("native", "responses", "gpt-5-codex", VENDOR);
  const v = vendor.request.headers;
  assert.equal(v.originator, "codex_exec");
  assert.equal(v["session-id"], vendor.sessionId);
  assert.match(v["user-agent"], /^codex_exec\/0\.171\.0 \(\w+; \w+\) \(codex_exec; 0\.171\.0\)$/);
  assert.deepEqual((vendor.request.body as Record<string, unknown>).client_metadata, {
    session_id: vendor.sessionId,
    thread_id: vendor.sessionId,
    "x-codex-window-id": `${vendor.sessionId}:0`,
  });
});

Deno.test("opencode sends its session affinity headers always, its user agent on request", async () => {
  const plain = await firstRequest("opencode", "chat", "test-model");
  assert.equal(plain.request.headers["x-session-id"], plain.sessionId);
  assert.equal(plain.request.headers["x-session-affinity"], plain.sessionId);
  assert.equal(plain.request.headers["user-agent"], "interpreter");
  const vendor = await firstRequest("opencode", "chat", "test-model", VENDOR);
  assert.equal(vendor.request.headers["x-session-affinity"], vendor.sessionId);
  assert.match(vendor.request.headers["user-agent"], /^opencode\/1\.18\.33 ai-sdk\//);
});

Deno.test("qwen-code sends Qwen Code's user agent only on request", async () => {
  const plain = await firstRequest("qwen-code", "chat", "qwen3-coder-plus");
  assert.equal(plain.request.headers["user-agent"], "interpreter");
  const vendor = await firstRequest("qwen-code", "chat", "qwen3-coder-plus", VENDOR);
  const os = Deno.build.os === "windows" ? "win32" : Deno.build.os;
  const arch = NODE_ARCH[Deno.build.arch] ?? Deno.build.arch;
  assert.equal(vendor.request.headers["user-agent"], `QwenCode/0.24.4 (${os}; ${arch})`);
});

Deno.test("a provider's http_headers win over the harness's, and an empty one removes it", async () => {
  const config = `${VENDOR}\n[model_providers.fake.http_headers]\nx-app = ""\n` +
    `user-agent = "mine/1.0"\n`;
  const { request } = await firstRequest("claude-code", "messages", "claude-opus-5-5", config);
  assert.equal(request.headers["x-app"], undefined);
  assert.equal(request.headers["user-agent"], "mine/1.0");
  assert.ok(request.headers["x-claude-code-session-id"]);
});

Deno.test("a header value with a line break in config is refused, naming the key", async () => {
  const config = `[model_providers.fake.http_headers]\nx-team = "a\\nb"\n`;
  const error = await firstRequest("minimal", "chat", "test-model", config).then(
    () => undefined,
    (e: Error) => e,
  );
  assert.ok(error, "the session must not open");
  assert.match(String(error), /http_headers/);
  assert.match(String(error), /line breaks/);
});

Deno.test("gemini-cli sends Gemini CLI's user agent, with the model, only on request", async () => {
  const plain = await firstRequest("gemini-cli", "gemini", "gemini-3.8-flash");
  assert.equal(plain.request.headers["user-agent"], "interpreter");
  assert.equal(plain.request.headers["x-goog-api-client"], undefined);
  const vendor = await firstRequest("gemini-cli", "gemini", "gemini-3.8-flash", VENDOR);
  const v = vendor.request.headers;
  assert.match(
    v["user-agent"],
    /^GeminiCLI-tui\/0\.61\.0\/gemini-3\.8-flash \(\w+; \w+; terminal\)$/,
  );
  assert.match(v["x-goog-api-client"], /^google-genai-sdk\//);
});

Deno.test("a harness header with an unknown placeholder is refused when the harness loads", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_harness_headers_" });
  try {
    const source = fileURLToPath(new URL("../harnesses/minimal/", import.meta.url));
    await copyDir(source, join(dir, "minimal"));
    const spec = join(dir, "minimal", "harness.toml");
    await Deno.writeTextFile(
      spec,
      `${await Deno.readTextFile(spec)}\n[request.responses]\nheaders = { "x-a" = "{nope}" }\n`,
    );
    await assert.rejects(
      () => loadHarness("minimal", { builtinDir: dir }),
      /unknown placeholder \{nope\}: use \{session_id\}/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const [a, b] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isDirectory) await copyDir(a, b);
    else await Deno.copyFile(a, b);
  }
}
