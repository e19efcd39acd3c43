import assert from "node:assert/strict";
import type { Message } from "../../model/message.ts";
import type { SessionRecord } from "../../store/mod.ts";
import { type CallReader, COMPACTION_NOTE, exportDoc, type ExportEntry } from "./conversation.ts";
import { htmlOf } from "./html.ts";
import { markdownOf } from "./markdown.ts";

const ts = "2026-12-05T03:00:00.000Z";
const usage = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 };
const meta = {
  sessionId: "id-1",
  model: "m",
  provider: "p",
  cwd: "/repo",
  created: ts,
};

const user = (text: string, extra: Partial<Extract<Message, { role: "user" }>> = {}) =>
  ({ role: "user", blocks: [{ type: "text", text }], ...extra }) as Message;
const call = (id: string, name: string, args: unknown): Message => ({
  role: "assistant",
  blocks: [{ type: "tool_call", id, name, args }],
  stop: "tool_calls",
  usage,
});
const answer = (text: string): Message => ({
  role: "assistant",
  blocks: [{ type: "text", text }],
  stop: "end_turn",
  usage,
});
const result = (callId: string, name: string, text: string, isError = false): Message => ({
  role: "tool_result",
  callId,
  name,
  blocks: [{ type: "text", text }],
  isError,
});

function record(m: Message): SessionRecord {
  if (m.role === "user") return { type: "user_message", ts, message: m };
  if (m.role === "assistant") return { type: "assistant_message", ts, message: m };
  return { type: "tool_result", ts, message: m };
}

/** Reads `Edit` as fs.edit and `Bash` as shell.run, the way a harness maps them. */
const readCall: CallReader = (block) => {
  const args = block.args as Record<string, unknown>;
  if (block.name === "Edit") return { capability: "fs.edit", input: args };
  if (block.name === "Bash") return { capability: "shell.run", input: args };
  return {};
};

function kinds(entries: ExportEntry[]): string[] {
  return entries.map((e) =>
    e.kind === "tool" ? `tool:${e.call.view.kind}` : `${e.kind}:${"text" in e ? e.text : ""}`
  );
}

Deno.test("exportDoc() reads commands, edits and other tools, each with its result", () => {
  const events = [
    user("fix it <now>"),
    call("c1", "Bash", { command: "npm test" }),
    result("c1", "Bash", "1 failed", true),
    call("c2", "Edit", { path: "a.ts", old_string: "x = 1", new_string: "x = 2" }),
    result("c2", "Edit", "ok"),
    call("c3", "mcp__docs__search", { q: "x" }),
    result("c3", "mcp__docs__search", "found"),
    call("c4", "exec_command", { cmd: "ls" }),
    answer("Fixed."),
  ].map(record);
  const doc = exportDoc(events, { meta, harness: "h", readCall });
  assert.equal(doc.title, "fix it <now>");
  assert.deepEqual(kinds(doc.entries), [
    "user:fix it <now>",
    "tool:command",
    "tool:change",
    "tool:other",
    "tool:command",
    "agent:Fixed.",
  ]);
  const [, bash, edit, , unread] = doc.entries.map((e) => e.kind === "tool" ? e.call : undefined);
  assert.deepEqual(bash?.view, { kind: "command", command: "npm test" });
  assert.equal(bash?.isError, true);
  assert.equal(edit?.view.kind === "change" && edit.view.changes[0].displayPath, "a.ts");
  assert.match(edit?.view.kind === "change" ? edit.view.changes[0].diff : "", /-x = 1\n\+x = 2/);
  assert.deepEqual(unread?.view, { kind: "command", command: "ls" }, "read by its arguments");
  assert.equal(unread?.result, undefined, "the session stopped before it returned");
  const md = markdownOf(doc);
  assert.match(md, /\*\*Ran\*\* \(failed\)\n\n```sh\n\$ npm test\n```/);
  assert.match(md, /\*\*Ran\*\* \(interrupted: no result\)/);
  assert.match(md, /update `a.ts`\n\n```diff\n/);
  assert.match(md, /\*\*Used\*\* `mcp__docs__search`/);
  const html = htmlOf(doc);
  assert.match(html, /<title>fix it &#60;now&#62;<\/title>/);
  assert.match(html, /<span class="del">-x = 1<\/span>/);
});

Deno.test("exportDoc() keeps what came before a compaction and drops what a rewind took out", () => {
  const kept = [user("summary of before", { systemRole: true }), user("second")];
  const events: SessionRecord[] = [
    ...[user("first"), answer("one"), user("second")].map(record),
    { type: "compaction", ts, messages: kept },
    ...[answer("two"), user("third"), answer("three")].map(record),
    { type: "history", ts, messages: [...kept, answer("two")] },
    ...[user("fourth")].map(record),
  ];
  const doc = exportDoc(events, { meta: { ...meta, name: "My work" }, harness: "h", readCall });
  assert.equal(doc.title, "My work");
  assert.deepEqual(kinds(doc.entries), [
    "user:first",
    "agent:one",
    "user:second",
    `note:${COMPACTION_NOTE}`,
    "agent:two",
    "user:fourth",
  ]);
});

Deno.test("exportDoc() leaves out the harness's context and the model's system notes", () => {
  const opening: Message = {
    role: "user",
    blocks: [{ type: "text", text: "AGENTS.md says", context: true }, {
      type: "text",
      text: "hello",
    }],
  };
  const events = [opening, user("a reminder", { systemRole: true }), answer("hi")].map(record);
  const doc = exportDoc(events, { meta, harness: "h", readCall });
  assert.deepEqual(kinds(doc.entries), ["user:hello", "agent:hi"]);
});

Deno.test("markdownOf() fences text that holds backticks with longer fences", () => {
  const events = [
    user("run it"),
    call("c1", "Bash", { command: "echo '```'" }),
    result("c1", "Bash", "````"),
  ].map(record);
  const md = markdownOf(exportDoc(events, { meta, harness: "h", readCall }));
  assert.match(md, /\n````sh\n\$ echo '```'\n````\n/);
  assert.match(md, /\n`````text\n````\n`````\n/);
});
