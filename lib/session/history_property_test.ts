/**
 * Property: a session that is stopped and resumed between any two steps (disposed, or dropped as
 * by kill -9) sends exactly the requests of one that never stopped, and its file never holds an
 * answer without the prompt before it. Random sequences of prompts, harness and model switches,
 * compactions, interrupted commands, `/new` and `/resume`, each run twice against the scripted
 * model: once live, once with restarts.
 */
import assert from "node:assert/strict";
import { parseScript, startFakeProvider } from "../../tests/fake_provider/server.ts";
import { readSession, type SessionRecord } from "../store/mod.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession, type Session, type SessionConfig, type SessionEvent } from "./open.ts";

type Op =
  | { kind: "prompt" | "interrupt" | "compact" | "new" | "resume" | "restart" | "kill" }
  | { kind: "harness"; id: string }
  | { kind: "model"; name: string };

const HARNESSES = ["native", "claude-code", "qwen-code", "kimi-code"];
const SHELL: Record<string, (cmd: string) => { name: string; args: Record<string, string> }> = {
  "native": (cmd) => ({ name: "exec_command", args: { cmd } }),
  "claude-code": (command) => ({ name: "Bash", args: { command } }),
  "qwen-code": (command) => ({ name: "run_shell_command", args: { command } }),
  "kimi-code": (command) => ({ name: "Bash", args: { command } }),
};

/** A small seeded generator (mulberry32): the same seed gives the same sequence. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomOps(seed: number, length: number): Op[] {
  const next = random(seed);
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
  const ops: Op[] = [{ kind: "prompt" }];
  while (ops.length < length) {
    const kind = pick(
      [
        "prompt",
        "prompt",
        "interrupt",
        "compact",
        "harness",
        "model",
        "new",
        "resume",
        "restart",
        "kill",
      ] as const,
    );
    if (kind === "harness") ops.push({ kind, id: pick(HARNESSES) });
    else if (kind === "model") ops.push({ kind, name: pick(["fake-model", "fake-model-2"]) });
    else ops.push({ kind });
  }
  ops.push({ kind: "prompt" });
  return ops;
}

/** The scripted model's replies for `ops`: every run of them makes the same requests. */
function scriptFor(ops: Op[]): string {
  let harness = "native";
  const turns: unknown[] = [];
  ops.forEach((op, i) => {
    if (op.kind === "harness") harness = op.id;
    if (op.kind === "prompt") turns.push({ reply: { text: `answer ${i}` } });
    if (op.kind === "compact") turns.push({ reply: { text: `SUMMARY ${i}` } });
    if (op.kind === "interrupt") {
      turns.push({ reply: { tool_calls: [SHELL[harness](`sleep 30 # ${i}`)] } });
    }
  });
  return turns.map((t) => JSON.stringify(t)).join("\n");
}

interface Run {
  session: Session;
  /** Told when a tool call starts. */
  onToolStart?: () => void;
  /** Sessions dropped without being disposed (kill -9), disposed when the run ends. */
  dropped: Session[];
}

/** Runs `ops`; with `restarts`, "resume", "restart" and "kill" reopen the session's file. */
async function runOps(ops: Op[], restarts: boolean) {
  await using fake = await startFakeProvider(parseScript(scriptFor(ops)), {
    allowTranslatedCalls: true,
  });
  await using ws = await sessionWorkspace(fake.baseUrl);
  const base: SessionConfig = { cwd: ws.cwd, sandbox: "danger-full-access", origin: "repl" };
  const run = { dropped: [] } as unknown as Run;
  const onEvent = (event: SessionEvent) => {
    if (event.type === "tool_start") run.onToolStart?.();
  };
  const open = (config: Partial<SessionConfig> = {}) =>
    openSession({ ...base, ...config }, { onEvent }, { env: ws.env });
  run.session = await open();
  const files = new Set<string>();
  try {
    for (const [i, op] of ops.entries()) await step(run, op, i, { open, restarts });
    for (const s of [run.session, ...run.dropped]) files.add(s.status().sessionFile!);
  } finally {
    for (const s of [run.session, ...run.dropped]) await s[Symbol.asyncDispose]();
  }
  assert.deepEqual(fake.failures, []);
  const records = await Promise.all([...files].map(async (f) => (await readSession(f)).events));
  return { requests: fake.requests.map((r) => r.body), records, workspace: ws.cwd };
}

async function step(
  run: Run,
  op: Op,
  i: number,
  how: { open: (config?: Partial<SessionConfig>) => Promise<Session>; restarts: boolean },
): Promise<void> {
  const signal = new AbortController().signal;
  const reopen = async (drop: boolean) => {
    const id = run.session.status().sessionId!;
    if (drop) run.dropped.push(run.session);
    else await run.session[Symbol.asyncDispose]();
    run.session = await how.open({ resume: { id } });
  };
  switch (op.kind) {
    case "prompt":
      return void await run.session.prompt(`question ${i}`, signal);
    case "interrupt":
      return await interrupted(run, `run it ${i}`);
    case "compact":
      return await run.session.compact(signal);
    case "harness":
      return await run.session.switchHarness(op.id);
    case "model":
      return await run.session.switchModel(op.name);
    case "new": {
      const { harness, model } = run.session.status();
      await run.session[Symbol.asyncDispose]();
      run.session = await how.open({ harness, model });
      return;
    }
    // `/resume` of this session, a restart or a kill: only the run with restarts stops.
    case "resume":
    case "restart":
    case "kill":
      if (how.restarts) await reopen(op.kind === "kill");
  }
}

/** A prompt whose command is stopped (Ctrl-C) once it has started. */
async function interrupted(run: Run, prompt: string): Promise<void> {
  const controller = new AbortController();
  const started = Promise.withResolvers<void>();
  run.onToolStart = () => started.resolve();
  const turn = run.session.prompt(prompt, controller.signal);
  await Promise.race([started.promise, turn]);
  controller.abort();
  await turn;
  run.onToolStart = undefined;
}

/** Every answer in the file follows a prompt or a tool result (replayed as a resume would). */
function answersFollowPrompts(events: SessionRecord[]): string[] {
  const problems: string[] = [];
  let last: string | undefined;
  for (const [n, event] of events.entries()) {
    if (event.type === "compaction" || event.type === "history") {
      last = event.messages.at(-1)?.role;
    } else if (event.type === "user_message" || event.type === "tool_result") {
      last = event.message.role;
    } else if (event.type === "assistant_message") {
      if (last !== "user" && last !== "tool_result") {
        problems.push(`event ${n + 1}: an answer after ${last ?? "nothing"}`);
      }
      last = "assistant";
    }
  }
  return problems;
}

/** What a request says about the conversation: its model and its messages. */
function conversation(body: unknown, workspace: string) {
  const { model, messages } = body as { model: string; messages: unknown };
  // Each run has its own temporary workspace and start time, which the context names.
  const text = JSON.stringify(messages).replaceAll(workspace, "<ws>")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>");
  return { model, messages: text };
}

for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
  Deno.test(`a resumed session sends what the live one sent (sequence ${seed})`, async () => {
    const ops = randomOps(seed, 12);
    const label = ops.map((o) => "id" in o ? `${o.kind} ${o.id}` : o.kind).join(", ");
    const live = await runOps(ops, false);
    const restarted = await runOps(ops, true);
    assert.equal(restarted.requests.length, live.requests.length, label);
    for (const [n, body] of restarted.requests.entries()) {
      assert.deepEqual(
        conversation(body, restarted.workspace),
        conversation(live.requests[n], live.workspace),
        `request ${n + 1} of: ${label}`,
      );
    }
    for (const events of [...live.records, ...restarted.records]) {
      assert.deepEqual(answersFollowPrompts(events), [], label);
    }
  });
}
