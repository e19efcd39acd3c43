import assert from "node:assert/strict";
import type { ResolvedHookCall, ToolHook } from "../../loop/tool_hooks.ts";
import { readOnlyHooks } from "./read_only.ts";

const call = (capability: string, mutates: boolean, input: unknown): ResolvedHookCall => ({
  id: "c1",
  name: capability === "shell.run" ? "Bash" : "Write",
  args: input,
  capability,
  mutates,
  input,
});

Deno.test("a read-only sub-agent's link refuses writes and commands not known to only read", async () => {
  const base: ToolHook = { name: "approval" };
  const links = readOnlyHooks(() => [base], "auditor")({ harness: {} as never, state: new Map() });
  assert.equal(links.length, 2);
  assert.equal(links[1], base, "the session's own links still run after it");
  const before = (c: ResolvedHookCall) => links[0].before!(c, new AbortController().signal);
  assert.deepEqual(await before(call("fs.write", true, { path: "a" })), {
    action: "deny",
    reason: "The sub-agent auditor is read-only: Write can change files",
  });
  assert.match(
    JSON.stringify(await before(call("shell.run", false, { command: "touch x" }))),
    /auditor is read-only: only commands known to only read can run/,
  );
  assert.equal(await before(call("shell.run", false, { command: "ls -la" })), undefined);
  assert.equal(await before(call("fs.read", false, { path: "a" })), undefined);
});
