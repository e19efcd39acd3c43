import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../harness/load.ts";
import { SandboxGrant, type ToolHook } from "../loop/tool_hooks.ts";
import { type ApprovalCheck, approvalLink } from "./approval.ts";
import { remindersLink } from "./reminders_link.ts";
import { sessionToolHooks } from "./session_chain.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));
const signal = new AbortController().signal;

const CALL = {
  id: "c9",
  name: "Bash",
  args: { command: "curl example.com" },
  capability: "shell.run",
  mutates: true,
  input: { command: "curl example.com" },
};

function before(hook: ToolHook) {
  return hook.before!(CALL, signal);
}

Deno.test("sessionToolHooks() runs approval first, then the reminders, then the loop guard", async () => {
  const harness = await loadHarness("native", { builtinDir: HARNESSES });
  const links = sessionToolHooks({ approve: () => Promise.resolve({ allow: true }) })({
    harness,
    state: new Map(),
  });
  assert.deepEqual(links.map((l) => l.name), ["approval", "reminders", "loop guard"]);
});

Deno.test("approvalLink() passes the call, its capability and the signal to the check", async () => {
  const seen: Parameters<ApprovalCheck>[] = [];
  const link = approvalLink((...args) => {
    seen.push(args);
    return Promise.resolve({ allow: true });
  });
  await before(link);
  assert.deepEqual(seen, [[
    { id: "c9", name: "Bash" },
    { capability: "shell.run", input: CALL.input, mutates: true },
    signal,
  ]]);
});

Deno.test("approvalLink() denies with the check's reason, and grants only what it granted", async () => {
  const denied = await before(
    approvalLink(() => Promise.resolve({ allow: false, reason: "The user refused" })),
  );
  assert.deepEqual(denied, { action: "deny", reason: "The user refused" });
  const sandboxed = await before(approvalLink(() => Promise.resolve({ allow: true })));
  assert.deepEqual(sandboxed, { action: "allow" });
  const granted = await before(
    approvalLink(() => Promise.resolve({ allow: true, unsandboxed: true })),
  );
  assert.equal(granted?.action, "allow");
  assert.ok(granted?.action === "allow" && SandboxGrant.isGrant(granted.grant));
});

Deno.test("remindersLink() adds the harness's todo reminder once the list has gone stale", async () => {
  const kimi = await loadHarness("kimi-cli", { builtinDir: HARNESSES });
  const state = new Map<string, unknown>([["todos", [{ content: "fix", status: "pending" }]]]);
  const link = remindersLink({ harness: kimi, state });
  const result = { text: "ok", isError: false };
  const verdicts = [];
  for (let i = 0; i < 12; i++) verdicts.push(await link.after!(CALL, result, signal));
  const notes = verdicts.filter((v) => v !== undefined);
  assert.equal(notes.length, 1);
  assert.equal(notes[0]?.action, "append");
  assert.match(notes[0]?.action === "append" ? notes[0].text : "", /todo list has not changed/);
});
