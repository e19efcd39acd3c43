/**
 * `undo()`, `checkpoints()` and `rewind()` of a real session against the scripted model: a
 * command's file and an edit are undone, and the checkpoints survive a resume.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseScript, startFakeProvider } from "../../../tests/fake_provider/server.ts";
import { readSession } from "../../store/mod.ts";
import { sessionWorkspace } from "../_test_session.ts";
import { openSession } from "../open.ts";

const script = (turns: unknown[]) => parseScript(turns.map((t) => JSON.stringify(t)).join("\n"));
const call = (id: string, name: string, args: Record<string, unknown>) => ({
  reply: { tool_calls: [{ id, name, args }] },
});
const never = () => Promise.reject(new Error("confirm must not be asked"));

function openIn(ws: { cwd: string; env: Record<string, string> }, resume?: string) {
  return openSession(
    {
      cwd: ws.cwd,
      harness: "minimal",
      sandbox: "danger-full-access",
      origin: "repl",
      ...(resume ? { resume: { id: resume } } : {}),
    },
    { onEvent: () => {} },
    { env: ws.env },
  );
}

Deno.test("undo and rewind restore files and conversation, also after a resume", async () => {
  await using fake = await startFakeProvider(script([
    call("c1", "bash", { command: "echo x > made.txt" }),
    { reply: { text: "made" } },
    call("e1", "str_replace_editor", {
      command: "str_replace",
      path: "a.txt",
      old_str: "v1",
      new_str: "v2",
    }),
    { reply: { text: "edited" } },
    { reply: { text: "fresh start" } },
  ]));
  await using ws = await sessionWorkspace(fake.baseUrl);
  await Deno.writeTextFile(join(ws.cwd, "a.txt"), "v1\n");
  const signal = new AbortController().signal;
  let file: string | undefined;
  {
    await using first = await openIn(ws);
    await first.prompt("make a file", signal);
    await first.prompt("edit a.txt", signal);
    assert.equal(await Deno.readTextFile(join(ws.cwd, "a.txt")), "v2\n");
    const undone = await first.undo(never);
    assert.deepEqual([undone.prompt, undone.restored, undone.turnsRemoved], [
      "edit a.txt",
      ["a.txt"],
      1,
    ]);
    assert.equal(await Deno.readTextFile(join(ws.cwd, "a.txt")), "v1\n");
    file = first.status().sessionFile;
  }
  assert.ok(file);
  const saved = await readSession(file);
  assert.equal(saved.history.length, 4, "the undone turn is out of the saved history too");
  assert.ok(!JSON.stringify(saved.history).includes("edit a.txt"));

  await using second = await openIn(ws, file);
  const list = await second.checkpoints();
  assert.deepEqual(list.turns.map((t) => [t.turn, t.prompt, t.files]), [
    [1, "make a file", ["made.txt"]],
  ]);
  const rewound = await second.rewind(1, { code: true, conversation: true }, never);
  assert.deepEqual([rewound.removed, rewound.turnsRemoved], [["made.txt"], 1]);
  await assert.rejects(Deno.stat(join(ws.cwd, "made.txt")), Deno.errors.NotFound);
  await second.prompt("start over", signal);
  const sent = JSON.stringify(fake.requests.at(-1)!.body);
  assert.match(sent, /start over/);
  assert.doesNotMatch(sent, /make a file|echo x/);
  assert.deepEqual(fake.failures, []);
});

Deno.test("a session that is not the REPL's keeps no checkpoints", async () => {
  await using fake = await startFakeProvider(script([{ reply: { text: "ok" } }]));
  await using ws = await sessionWorkspace(fake.baseUrl);
  await using session = await openSession(
    { cwd: ws.cwd, harness: "minimal", sandbox: "danger-full-access", origin: "exec" },
    { onEvent: () => {} },
    { env: ws.env },
  );
  await session.prompt("hi", new AbortController().signal);
  const file = session.status().sessionFile!;
  assert.deepEqual(await session.checkpoints(), {
    turns: [],
    notes: ["This session keeps no checkpoints: only REPL sessions keep them"],
  });
  await assert.rejects(session.undo(never), /keeps no checkpoints/);
  await assert.rejects(Deno.stat(file.replace(/\.jsonl$/, ".checkpoints")), Deno.errors.NotFound);
});
