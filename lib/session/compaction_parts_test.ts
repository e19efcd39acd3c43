import assert from "node:assert/strict";
import { promptMessages, type SessionContext } from "../harness/context.ts";
import { emptyUsage, type Message, systemText, textOf } from "../model/message.ts";
import { openProvider } from "../providers/mod.ts";
import { testSettings } from "../providers/_testing.ts";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { compactHistory } from "./compaction.ts";
import { cut, lastRequest, transcript } from "./compaction_parts.ts";

const text = (t: string, context?: boolean) => ({
  type: "text" as const,
  text: t,
  ...(context ? { context } : {}),
});

/** A Codex-like opening: AGENTS.md as a user item, the environment in the first prompt. */
const CONTEXT: SessionContext = {
  system: systemText("You are a coding agent."),
  before: [{ role: "user", blocks: [text("# AGENTS.md\nAlways run the linter.", true)] }],
  firstUser: [text("<environment_context>cwd=/w</environment_context>", true)],
  after: [],
  everyUser: [text("<reminder>stay in the workspace</reminder>", true)],
  turnPrefix: "",
};

/** One read of a long file: a call and its result. */
function read(n: number, chars: number): Message[] {
  return [
    {
      role: "assistant",
      blocks: [{ type: "tool_call", id: `c${n}`, name: "shell", args: { cmd: `cat f${n}` } }],
      stop: "tool_calls",
      usage: emptyUsage(),
    },
    {
      role: "tool_result",
      callId: `c${n}`,
      name: "shell",
      blocks: [text(`line ${n} of the file. `.repeat(chars / 22))],
      isError: false,
    },
  ];
}

Deno.test("a history past the window is summarised in parts, each fitting it, and the opening and the request stay as they were", async () => {
  const window = 4096;
  await using fake = startFakeProvider(
    Array.from({ length: 12 }, (_, i) => ({ reply: { text: `SUMMARY-${i + 1}` } })),
  );
  const provider = await openProvider(testSettings(fake.baseUrl, "chat"));
  const opening = promptMessages(CONTEXT, [text("first, read the files")], true);
  const skill: Message = { role: "user", blocks: [text("<skill>\n<name>lint</name>\n</skill>")] };
  const request: Message = { role: "user", blocks: [text("now fix what they say")] };
  const state = {
    model: "m",
    system: CONTEXT.system,
    messages: [
      ...opening,
      ...read(1, 9000),
      ...read(2, 20_000),
      {
        role: "assistant" as const,
        blocks: [text("Read.")],
        stop: "end_turn" as const,
        usage: emptyUsage(),
      },
      ...promptMessages(CONTEXT, request.blocks, false),
      skill,
      ...read(3, 6000),
    ],
    usage: emptyUsage(),
  };
  const history = await compactHistory(
    state,
    provider,
    new AbortController().signal,
    { compaction: "Summarize.", compactionSummary: "Summary:\n{summary}" },
    CONTEXT,
    { contextWindow: window },
  );
  assert.deepEqual(fake.failures, []);
  assert.ok(fake.requests.length >= 3, `${fake.requests.length} summary requests`);
  for (const [i, r] of fake.requests.entries()) {
    const body = r.body as { max_tokens?: number };
    const size = Math.ceil(JSON.stringify(body).length / 4) + (body.max_tokens ?? 0);
    assert.ok(size <= window, `request ${i + 1} needs ${size} tokens`);
  }
  // Each part carries the summary of the parts before it; the last one's reply is the summary.
  assert.match(JSON.stringify(fake.requests[1].body), /SUMMARY-1/);
  const last = fake.requests.length;
  assert.deepEqual(history, [
    opening[0],
    { role: "user", blocks: [CONTEXT.firstUser[0], text(`Summary:\nSUMMARY-${last}`)] },
    request,
    { role: "user", blocks: [CONTEXT.everyUser[0]] },
    skill,
  ]);
});

Deno.test("a summary request the provider refuses as too long is sent again in smaller parts", async () => {
  const tooLong = {
    status: 400,
    body: { error: { message: "This model's maximum context length is 4096 tokens" } },
  };
  await using fake = startFakeProvider([
    { error: tooLong },
    ...Array.from({ length: 12 }, (_, i) => ({ reply: { text: `SUMMARY-${i + 1}` } })),
  ], { allowForeignIds: true });
  const provider = await openProvider(testSettings(fake.baseUrl, "chat"));
  const state = {
    model: "m",
    system: CONTEXT.system,
    messages: [{ role: "user" as const, blocks: [text("read them")] }, ...read(1, 16_000)],
    usage: emptyUsage(),
  };
  const texts = { compaction: "Summarize.", compactionSummary: "{summary}" };
  const signal = new AbortController().signal;
  const history = await compactHistory(state, provider, signal, texts, undefined, {
    contextWindow: 8192,
  });
  const bodies = fake.requests.map((r) => JSON.stringify(r.body));
  assert.doesNotMatch(bodies[0], /in parts/, "the history fit: one request first");
  assert.ok(bodies.length > 2, "then parts of at most half the room");
  assert.ok(bodies.slice(1).every((b) => /comes in parts/.test(b)));
  assert.equal(textOf(history[0].blocks), `SUMMARY-${bodies.length - 1}`);
});

Deno.test("lastRequest() is the prompt that opened the last turn, with its skills and the lines sent into it", () => {
  const skill: Message = { role: "user", blocks: [text("<skill>\nx\n</skill>")] };
  const reminder: Message = { role: "user", blocks: [text("<reminder/>", true)] };
  const prompt: Message = { role: "user", blocks: [text("do it")] };
  const steered: Message = { role: "user", blocks: [text("and the docs too")] };
  const reply: Message = { role: "assistant", blocks: [], stop: "end_turn", usage: emptyUsage() };
  const old: Message = { role: "user", blocks: [text("an older prompt")] };
  assert.deepEqual(
    lastRequest([old, reply, prompt, reminder, skill, ...read(1, 44), steered, ...read(2, 44)]),
    [prompt, skill, steered],
  );
  assert.deepEqual(lastRequest([prompt, reminder, skill, reply, reminder]), [prompt, skill]);
  // After an interrupted turn the next prompt follows a tool result too: both are kept.
  assert.deepEqual(lastRequest([reply, old, ...read(3, 44), prompt]), [old, prompt]);
  assert.deepEqual(lastRequest([reply]), []);
});

Deno.test("transcript() writes each message as a paragraph; cut() keeps both ends", () => {
  assert.deepEqual(
    transcript([
      { role: "user", blocks: [text("hi")] },
      ...read(1, 22).map((m) => m),
    ]),
    [
      "User:\nhi",
      'Assistant:\n[called shell with {"cmd":"cat f1"}]',
      "Result of shell:\nline 1 of the file. ",
    ],
  );
  const count = (t: string) => Math.ceil(t.length / 4);
  const long = `START ${"x".repeat(4000)} END`;
  const short = cut(long, 200, count);
  assert.ok(count(short) <= 200);
  assert.match(short, /^START x+\n\[… the middle is left out to fit the window …\]\nx+ END$/);
  assert.equal(cut("short", 200, count), "short");
});
