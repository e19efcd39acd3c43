import assert from "node:assert/strict";
import { parseScript, startFakeProvider } from "../../tests/fake_provider/server.ts";
import { readSession } from "../store/mod.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession, type SessionEvent } from "./open.ts";
import type { SessionIO } from "./types.ts";

const script = (turns: unknown[]) => parseScript(turns.map((t) => JSON.stringify(t)).join("\n"));

/** The approval and question events, labelled with their call ids, in order. */
function asked(events: SessionEvent[]): string[] {
  return events.flatMap((e) =>
    e.type === "approval_requested" || e.type === "approval_resolved" ||
      e.type === "approval_withdrawn"
      ? [`${e.type}:${e.callId}`]
      : []
  );
}

/**
 * Runs one turn whose first reply calls `call` under `harness`; `io` gets the turn's controller
 * to cancel it. Returns the outcome, the events and the session file's approval lines.
 */
async function turnWith(
  call: { id: string; name: string; args: unknown },
  harness: string,
  io: (turn: AbortController) => Partial<SessionIO>,
) {
  await using fake = await startFakeProvider(script([{ reply: { tool_calls: [call] } }]));
  await using ws = await sessionWorkspace(fake.baseUrl);
  const events: SessionEvent[] = [];
  const turn = new AbortController();
  const front = io(turn);
  let file: string | undefined;
  let outcome;
  {
    await using session = await openSession(
      { cwd: ws.cwd, sandbox: "danger-full-access", approval: "untrusted", harness },
      { ...front, onEvent: (event) => (events.push(event), front.onEvent?.(event)) },
      { env: ws.env },
    );
    outcome = await session.prompt("go", turn.signal);
    file = session.status().sessionFile;
  }
  assert.ok(file);
  const saved = (await readSession(file)).events.filter((e) => e.type === "approval");
  return { outcome, events, saved };
}

const NEVER = new Promise<never>(() => {});

Deno.test("an approval withdrawn by cancelling the turn is reported and saved as aborted", async () => {
  const call = { id: "call_1", name: "exec_command", args: { cmd: "touch made.txt" } };
  const { outcome, events, saved } = await turnWith(call, "native", (turn) => ({
    // The front end never answers: only the cancel ends the question.
    approve: () => (queueMicrotask(() => turn.abort()), NEVER),
  }));
  assert.deepEqual(outcome, { status: "aborted" });
  assert.deepEqual(asked(events), ["approval_requested:call_1", "approval_withdrawn:call_1"]);
  assert.deepEqual(saved.map((e) => [e.callId, e.decision]), [["call_1", "aborted"]]);
});

Deno.test("an approval answered before the turn is cancelled is not reported withdrawn", async () => {
  const call = { id: "call_1", name: "exec_command", args: { cmd: "touch made.txt" } };
  const { outcome, events, saved } = await turnWith(call, "native", (turn) => ({
    approve: () => Promise.resolve("once"),
    // Cancelled the moment the answer is reported, before the call runs.
    onEvent: (event) => event.type === "approval_resolved" && turn.abort(),
  }));
  assert.deepEqual(outcome, { status: "aborted" });
  assert.deepEqual(asked(events), ["approval_requested:call_1", "approval_resolved:call_1"]);
  assert.deepEqual(saved.map((e) => [e.callId, e.decision]), [["call_1", "approved"]]);
});

Deno.test("a question (user.ask) withdrawn by cancelling the turn is reported with its call id", async () => {
  const call = {
    id: "call_q",
    name: "request_user_input",
    args: {
      questions: [{
        id: "db",
        header: "DB",
        question: "Which database?",
        options: [{ label: "Postgres" }, { label: "SQLite" }],
      }],
    },
  };
  const { outcome, events, saved } = await turnWith(call, "deepseek-tui", (turn) => ({
    askUser: () => (queueMicrotask(() => turn.abort()), NEVER),
  }));
  assert.deepEqual(outcome, { status: "aborted" });
  assert.deepEqual(asked(events), ["approval_withdrawn:call_q"]);
  assert.deepEqual(saved, [], "questions are not approvals: nothing is saved for them");
});
