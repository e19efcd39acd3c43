import assert from "node:assert/strict";
import { approvalView } from "../../session/tool_views/approval_view.ts";
import { promptly } from "../../approval/_test_wait.ts";
import { until } from "../../../tests/e2e/_poll.ts";
import { type Tty, ttyApprover } from "./approve_tty.ts";

const ASK = {
  callId: "call_1",
  tool: "Bash",
  question: {
    capability: "shell.run",
    subject: "npm test",
    reason: "approval_policy is untrusted",
    unsandboxed: false,
  },
};
const REQ = { ...ASK, view: approvalView(ASK, "/repo") };

/**
 * A terminal where `typed` is what the user types; without it, a read waits until the terminal
 * is closed and then fails as Deno's does ("Interrupted: operation canceled").
 */
function fakeTty(typed?: string) {
  const state = { written: "", closed: false, reading: false, opened: 0 };
  let endRead: ((error: Error) => void) | undefined;
  const tty: Tty = {
    read(buffer) {
      state.reading = true;
      if (typed === undefined) return new Promise((_, reject) => (endRead = reject));
      const bytes = new TextEncoder().encode(typed);
      buffer.set(bytes);
      return Promise.resolve(bytes.length);
    },
    write(bytes) {
      state.written += new TextDecoder().decode(bytes);
      return Promise.resolve(bytes.length);
    },
    close() {
      state.closed = true;
      endRead?.(new Deno.errors.Interrupted("operation canceled"));
    },
  };
  const open = () => (state.opened++, Promise.resolve(tty));
  return { state, open };
}

Deno.test("ttyApprover() asks on the terminal and reads the answer and its note", async () => {
  const yes = fakeTty("y\n");
  const signal = new AbortController().signal;
  assert.deepEqual(await ttyApprover(yes.open)(REQ, signal), { answer: "once" });
  assert.match(
    yes.state.written,
    /^\nRun npm test\? \(Bash\)\n {2}why: approval_policy/,
  );
  assert.match(yes.state.written, /\[y\] yes once {2}\[a\] yes for this session .* > $/);
  assert.equal(yes.state.closed, true);
  const no = fakeTty("n use the staging database\n");
  assert.deepEqual(await ttyApprover(no.open)(REQ, signal), {
    answer: "deny",
    note: "use the staging database",
  });
});

Deno.test("ttyApprover() withdraws the question and closes the terminal when the turn is cancelled", async () => {
  const tty = fakeTty();
  const turn = new AbortController();
  const reply = ttyApprover(tty.open)(REQ, turn.signal);
  await until("the terminal read", () => tty.state.reading);
  turn.abort();
  await assert.rejects(promptly(reply), { name: "AbortError" });
  assert.equal(tty.state.closed, true);
  assert.match(tty.state.written, /\n\(withdrawn: the turn was cancelled\)\n$/);
});

Deno.test("ttyApprover() opens no terminal once the turn is cancelled", async () => {
  const tty = fakeTty("y\n");
  const turn = new AbortController();
  turn.abort();
  await assert.rejects(ttyApprover(tty.open)(REQ, turn.signal), { name: "AbortError" });
  assert.equal(tty.state.opened, 0);
});

Deno.test("ttyApprover() shows an edit as its diff, control characters made visible", async () => {
  const subject = JSON.stringify({ path: "a.py", old_string: "x = 1", new_string: "x = 2\x1b[2J" });
  const ask = {
    callId: "c2",
    tool: "Edit",
    question: { capability: "fs.edit", subject, reason: "untrusted", unsandboxed: false },
  };
  const tty = fakeTty("n\n");
  const reply = await ttyApprover(tty.open)(
    { ...ask, view: approvalView(ask, "/repo") },
    new AbortController().signal,
  );
  assert.deepEqual(reply, { answer: "deny" });
  assert.match(tty.state.written, /^\nChange a\.py\? \(Edit\)\n {2}update a\.py\n/);
  assert.match(tty.state.written, /\n {2}-x = 1\n {2}\+x = 2\\u\{1b\}\[2J\n {2}why: untrusted\n/);
});
