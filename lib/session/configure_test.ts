import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import type { ScriptTurn } from "../../tests/fake_provider/script.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession, type SessionConfig, type SessionEvent, type SessionIO } from "./open.ts";
import { need } from "../../sandbox/_test_requires.ts";
import { UnlistedModelError } from "./errors.ts";

const BWRAP = await need("bwrap");

const signal = () => new AbortController().signal;

/** A workspace whose config adds `fakemsg`, a provider on the messages wire at the same fake. */
async function twoWires(script: ScriptTurn[]) {
  const fake = startFakeProvider(script);
  const ws = await sessionWorkspace(
    fake.baseUrl,
    "",
  );
  await Deno.writeTextFile(
    join(ws.home, "config.toml"),
    `\n[model_providers.fakemsg]\nname = "Fake Messages"\nbase_url = "${fake.origin}"\n` +
      `wire_api = "messages"\nenv_key = "FAKE_API_KEY"\n`,
    { append: true },
  );
  return {
    fake,
    ws,
    async [Symbol.asyncDispose]() {
      await fake.close();
      await ws[Symbol.asyncDispose]();
    },
  };
}

function open(
  ws: { cwd: string; env: Record<string, string> },
  config: Partial<SessionConfig> = {},
  io: Partial<SessionIO> = {},
  events: SessionEvent[] = [],
) {
  return openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access", approval: "never", ephemeral: true, ...config },
    { onEvent: (e) => events.push(e), ...io },
    { env: ws.env },
  );
}

Deno.test("after a switch to a messages provider the harness is checked against messages, not the start-up wire", async () => {
  await using t = await twoWires([{ reply: { text: "hi" } }]);
  await using session = await open(t.ws, { harness: "pi" });
  assert.equal(session.settings.wire, "chat");
  await session.switchModel("fakemsg/mock-model");
  assert.deepEqual(
    [session.settings.provider, session.settings.wire, session.settings.model],
    ["fakemsg", "messages", "mock-model"],
  );
  await session.switchHarness("zcode");
  await assert.rejects(
    session.switchHarness("deepseek-tui"),
    /"messages".*deepseek-tui|deepseek-tui.*messages/,
  );
  assert.equal(session.settings.harness, "zcode");
  // {{model}} in zcode's environment text is the model in use, not the start-up one.
  await session.prompt("hello", signal());
  const [request] = t.fake.requests;
  assert.equal(request.path, "/v1/messages");
  const body = JSON.stringify(request.body);
  assert.match(body, /zai\/mock-model/);
  assert.doesNotMatch(body, /zai\/fake-model/);
  // The harness choices read the route in use too.
  const harnesses = await session.harnesses();
  assert.equal(harnesses.find((h) => h.current)?.id, "zcode");
});

Deno.test("configure() checks every part together: a harness and a model that fit only together", async () => {
  await using t = await twoWires([]);
  await using session = await open(t.ws, { harness: "deepseek-tui" });
  // Alone, each part is refused; nothing changes.
  await assert.rejects(session.configure({ model: "fakemsg/mock-model" }), /deepseek-tui/);
  await assert.rejects(session.configure({ harness: "zcode" }), /"chat"/);
  assert.deepEqual([session.settings.harness, session.settings.wire], ["deepseek-tui", "chat"]);
  const settings = await session.configure({ model: "fakemsg/mock-model", harness: "zcode" });
  assert.deepEqual([settings.harness, settings.wire, settings.model], [
    "zcode",
    "messages",
    "mock-model",
  ]);
  // Refused together, leaving both as they were.
  await assert.rejects(session.configure({ model: "fake/fake-model", harness: "zcode" }));
  assert.deepEqual([session.settings.harness, session.settings.provider], ["zcode", "fakemsg"]);
});

/** `twoWires()` with the built-in `openai` provider (which the model catalog lists) at the fake. */
async function withCatalogProvider(fakeModels: string[]) {
  const t = await twoWires([]);
  const fake = startFakeProvider([], { models: fakeModels });
  const file = join(t.ws.home, "config.toml");
  // A window of its own (a top-level key, first), so that no guess note says the model is unknown.
  await Deno.writeTextFile(
    file,
    `model_context_window = 100000\n${await Deno.readTextFile(file)}\n` +
      `[model_providers.openai]\nbase_url = "${t.fake.baseUrl}"\nwire_api = "chat"\n` +
      `env_key = "FAKE_API_KEY"\n[model_providers.served]\nbase_url = "${fake.baseUrl}"\n` +
      `wire_api = "chat"\nenv_key = "FAKE_API_KEY"\n`,
  );
  return {
    ws: t.ws,
    async [Symbol.asyncDispose]() {
      await fake.close();
      await t[Symbol.asyncDispose]();
    },
  };
}

Deno.test("start-up values are never refused for an unlisted model, only noted", async () => {
  await using t = await withCatalogProvider([]);
  const notes = (events: SessionEvent[]) =>
    events.flatMap((e) =>
      e.type === "warning" && /used as given/.test(e.message) ? [e.message] : []
    );
  const flag: SessionEvent[] = [];
  {
    await using session = await open(t.ws, { provider: "openai", model: "gpt-4.1-mnii" }, {}, flag);
    assert.equal(session.settings.model, "gpt-4.1-mnii");
  }
  assert.equal(notes(flag).length, 1, String(notes(flag)));
  assert.match(
    notes(flag)[0],
    /^The model "gpt-4\.1-mnii" is not in the model catalog for provider "openai" \(nearest listed: gpt-4\.1-mini\b.*\); it is used as given$/,
  );
  const overrides = [
    { keyPath: ["model_provider"], value: "openai", origin: "-c model_provider" },
    { keyPath: ["model"], value: "gpt-4.1-mnii", origin: "-c model" },
  ];
  const byOverride: SessionEvent[] = [];
  {
    await using session = await open(t.ws, { overrides }, {}, byOverride);
    assert.equal(session.settings.model, "gpt-4.1-mnii");
  }
  assert.equal(notes(byOverride).length, 1);
  // A listed one is not noted.
  const listed: SessionEvent[] = [];
  await (await open(t.ws, { provider: "openai", model: "gpt-4.1-mini" }, {}, listed))
    [Symbol.asyncDispose]();
  assert.deepEqual(notes(listed), []);
});

Deno.test("a model switched to by hand must be in the list at hand; NAME! takes it as given", async () => {
  await using t = await withCatalogProvider(["served-model", "other-model"]);
  await using session = await open(t.ws, { provider: "openai", model: "gpt-4.1" });
  await assert.rejects(session.configure({ model: "gpt-4.1-nanno" }), (error: Error) => {
    assert.ok(error instanceof UnlistedModelError);
    assert.match(error.message, /"gpt-4\.1-nanno" for provider "openai": .* the model catalog/);
    assert.equal(error.nearest[0], "gpt-4.1-nano");
    return true;
  });
  assert.equal(session.settings.model, "gpt-4.1", "nothing changed");
  await session.configure({ model: "gpt-4.1-nano" });
  await session.configure({ model: "gpt-4.1-nanno!" });
  assert.equal(session.settings.model, "gpt-4.1-nanno");
  // A custom provider has no catalog list, and its server's list was not fetched: any name.
  await session.configure({ model: "served/served-modle" });
  assert.equal(session.settings.model, "served-modle");
  // Once models() fetched the server's list, that list is at hand.
  await session.models();
  await assert.rejects(session.configure({ model: "served/other-modle" }), (error: Error) => {
    assert.ok(error instanceof UnlistedModelError);
    assert.match(error.message, /it is not in the server's list/);
    assert.deepEqual(error.nearest, ["served/other-model"]);
    return true;
  });
  await session.configure({ model: "served/other-model" });
  assert.deepEqual([session.settings.provider, session.settings.model], ["served", "other-model"]);
});

Deno.test("a plan-mode session resumes in plan mode; one that left it does not", async () => {
  await using t = await twoWires([]);
  const { ws } = t;
  const saved = { ephemeral: false };
  let id: string;
  {
    await using session = await open(ws, saved);
    session.setPlanMode(true);
    assert.equal(session.settings.planMode, true);
    id = session.id;
  }
  {
    await using resumed = await open(ws, { ...saved, resume: { id } });
    assert.equal(resumed.planMode, true);
    assert.equal(resumed.settings.planMode, true);
    await resumed.configure({ planMode: false });
  }
  await using again = await open(ws, { ...saved, resume: { id } });
  assert.equal(again.planMode, false);
});

Deno.test("plan mode a harness's EnterPlanMode turned on is recorded and survives resume", async () => {
  await using t = await twoWires([
    { reply: { tool_calls: [{ name: "EnterPlanMode", args: {} }] } },
    { reply: { text: "Planning." } },
  ]);
  const config = { provider: "fakemsg", model: "mock-model", harness: "zcode", ephemeral: false };
  const io = { askUser: () => Promise.resolve(null) };
  let id: string;
  {
    await using session = await open(t.ws, config, io);
    await session.prompt("plan it", signal());
    assert.equal(session.planMode, true);
    id = session.id;
  }
  await using resumed = await open(t.ws, { ...config, resume: { id } }, io);
  assert.equal(resumed.settings.planMode, true);
});

Deno.test({
  name: "sandbox mode and approval policy change in place and are read at each call" + BWRAP.note,
  ignore: BWRAP.ignore,
  async fn() {
    const touch = (file: string): ScriptTurn => ({
      reply: { tool_calls: [{ name: "bash", args: { command: `touch ${file}` } }] },
    });
    await using t = await twoWires([
      touch("a.txt"),
      { reply: { text: "tried" } },
      touch("b.txt"),
      { reply: { text: "tried" } },
    ]);
    await using session = await open(t.ws, {
      harness: "pi",
      sandbox: "workspace-write",
      approval: "never",
    });
    const before = session.mcp;
    let settings = await session.configure({ sandboxMode: "read-only" });
    assert.equal(settings.sandboxMode, "read-only");
    assert.equal(session.status().sandboxMode, "read-only");
    assert.match(session.info.sandbox, /read-only/);
    await session.prompt("make a.txt", signal());
    const exists = (f: string) => Deno.stat(join(t.ws.cwd, f)).then(() => true, () => false);
    assert.equal(await exists("a.txt"), false, "read-only: the command could not write");
    settings = await session.configure({
      sandboxMode: "workspace-write",
      approvalPolicy: "on-request",
    });
    assert.deepEqual([settings.sandboxMode, settings.approvalPolicy], [
      "workspace-write",
      "on-request",
    ]);
    await session.prompt("make b.txt", signal());
    assert.equal(await exists("b.txt"), true, "workspace-write: the command wrote");
    assert.equal(session.mcp, before);
  },
});

Deno.test({
  name: "a session grant survives a change to a wider mode and is dropped by a narrower one" +
    BWRAP.note,
  ignore: BWRAP.ignore,
  async fn() {
    const call: ScriptTurn = {
      reply: { tool_calls: [{ name: "bash", args: { command: "touch granted.txt" } }] },
    };
    const done: ScriptTurn = { reply: { text: "ok" } };
    await using t = await twoWires([call, done, call, done, call, done]);
    let asked = 0;
    await using session = await open(t.ws, {
      harness: "pi",
      sandbox: "read-only",
      approval: "untrusted",
    }, {
      approve: () => Promise.resolve(++asked === 1 ? "session" : "once"),
    });
    await session.prompt("one", signal());
    assert.equal(asked, 1);
    await session.configure({ sandboxMode: "workspace-write" });
    await session.prompt("two", signal());
    assert.equal(asked, 1, "the grant given under read-only holds under workspace-write");
    await session.configure({ sandboxMode: "read-only" });
    await session.prompt("three", signal());
    assert.equal(asked, 2, "a narrower mode asks again");
  },
});

Deno.test({
  name: "a sandbox mode that cannot be enforced here is refused and nothing changes" + BWRAP.note,
  ignore: BWRAP.ignore,
  async fn() {
    await using t = await twoWires([]);
    await using session = await open(
      t.ws,
      { sandbox: "workspace-write", approval: "never" },
      {},
      [],
    );
    const missing = { ...t.ws.env, OPENINTERPRETER_BWRAP: "/nonexistent/bwrap" };
    // The control: the same change is accepted where bubblewrap is there.
    await session.configure({ sandboxMode: "read-only" });
    assert.equal(session.settings.sandboxMode, "read-only");
    await using broken = await openSession(
      { cwd: t.ws.cwd, sandbox: "danger-full-access", approval: "never", ephemeral: true },
      { onEvent: () => {} },
      { env: missing },
    );
    await assert.rejects(
      broken.configure({ sandboxMode: "workspace-write" }),
      /not available here/,
    );
    assert.equal(broken.settings.sandboxMode, "danger-full-access");
  },
});

const background = (id: string, command: string): ScriptTurn => ({
  reply: {
    tool_calls: [{
      id,
      name: "Bash",
      args: { command, description: "run", run_in_background: true },
    }],
  },
});

Deno.test({
  name: "a narrower mode stops the background jobs started under the wider one, after a yes" +
    BWRAP.note,
  ignore: BWRAP.ignore,
  async fn() {
    await using t = await twoWires([
      background("c1", "sleep 300"),
      { reply: { text: "started" } },
      background("c2", "sleep 301"),
      { reply: { text: "started" } },
    ]);
    await using session = await open(t.ws, {
      harness: "claude-code",
      sandbox: "workspace-write",
      approval: "never",
    });
    const running = () => session.jobs().filter((j) => j.status === "running");
    await session.prompt("start one", signal());
    assert.equal(running().length, 1);
    const asked: string[][] = [];
    const no = (names: string[]) => {
      asked.push(names);
      return Promise.resolve(false);
    };
    await assert.rejects(
      session.configure({ sandboxMode: "read-only" }, { stopRunning: no }),
      /The sandbox mode stays workspace-write: background job \S+: sleep 300 started under it/,
    );
    assert.equal(asked.length, 1);
    assert.equal(running().length, 1, "told no: the job runs on");
    assert.equal(session.settings.sandboxMode, "workspace-write");
    const yes = () => Promise.resolve(true);
    await session.configure({ sandboxMode: "read-only" }, { stopRunning: yes });
    assert.equal(running().length, 0, "told yes: stopped");
    // The control: a wider mode asks nothing and stops nothing.
    await session.prompt("start another", signal());
    assert.equal(running().length, 1);
    const never = () => Promise.reject(new Error("must not be asked"));
    await session.configure({ sandboxMode: "workspace-write" }, { stopRunning: never });
    assert.equal(running().length, 1);
    // Without anyone to ask (ACP, exec) a narrower mode stops them.
    await session.configure({ sandboxMode: "read-only" });
    assert.equal(running().length, 0);
  },
});

Deno.test({
  name: "the {{sandbox}} text follows a sandbox mode change" + BWRAP.note,
  ignore: BWRAP.ignore,
  async fn() {
    await using t = await twoWires([{ reply: { text: "one" } }, { reply: { text: "two" } }]);
    await using session = await open(t.ws, {
      harness: "qwen-code",
      sandbox: "workspace-write",
      approval: "on-request",
    });
    const system = (i: number) => {
      const body = t.fake.requests[i].body as { messages: Array<{ content: unknown }> };
      return JSON.stringify(body.messages[0].content);
    };
    await session.prompt("one", signal());
    await session.configure({ sandboxMode: "read-only", approvalPolicy: "untrusted" });
    await session.prompt("two", signal());
    assert.match(system(0), /workspace-write/);
    assert.doesNotMatch(system(1), /workspace-write/);
    assert.match(system(1), /read-only/);
  },
});
