import assert from "node:assert/strict";
import { join } from "node:path";
import { rgRecords } from "./_rg.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { need } from "../../sandbox/_test_requires.ts";
import { type CommandSandbox, openCommandSandbox } from "../../sandbox/command_sandbox.ts";
import type { ToolContext } from "./capability.ts";

const RG = await need("rg");

Deno.test("rgRecords() hands over every record, also those split across reads" + RG.note, {
  ignore: RG.ignore,
}, async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 3000; i++) files[`dir_${i % 7}/file_with_a_long_name_${i}.txt`] = "";
  await using ws = await tempWorkspace(files);
  const seen: string[] = [];
  await rgRecords(["--files", "--null", "--", "."], { cwd: ws.dir, separator: 0 }, ws.ctx, (r) => {
    seen.push(r);
    return true;
  });
  const want = Object.keys(files).map((f) => `./${f}`);
  assert.deepEqual(seen.sort(), want.sort());
});

Deno.test("rgRecords() kills rg when told to stop, though rg would go on waiting" + RG.note, {
  ignore: RG.ignore,
}, async () => {
  await using ws = await tempWorkspace({ "a.txt": "hit\n" });
  const made = await new Deno.Command("mkfifo", { args: [join(ws.dir, "fifo")] }).output();
  assert.ok(made.success);
  // rg blocks opening the FIFO (no writer ever comes), after it printed the first match.
  const signal = AbortSignal.timeout(20_000);
  const ctx = { ...ws.ctx, signal };
  const seen: string[] = [];
  const args = ["--line-buffered", "-j1", "hit", "a.txt", "fifo"];
  await rgRecords(args, { cwd: ws.dir, separator: 0x0a }, ctx, (r) => {
    seen.push(r);
    return false;
  });
  assert.deepEqual(seen, ["a.txt:hit"]);
  assert.equal(signal.aborted, false);
});

Deno.test(
  "rgRecords() throws with rg's message when rg fails" + RG.note,
  { ignore: RG.ignore },
  async () => {
    await using ws = await tempWorkspace({ "a.txt": "x\n" });
    await assert.rejects(
      rgRecords(["--regexp", "(", "--", "."], { cwd: ws.dir, separator: 0x0a }, ws.ctx, () => true),
      /rg failed: .*regex/,
    );
  },
);

const BWRAP = await need("bwrap");

Deno.test(
  "rg in the session's sandbox, prepared ahead or made for it, lists what rg outside does; stopping or aborting ends it" +
    RG.note + BWRAP.note,
  {
    ignore: RG.ignore || BWRAP.ignore,
  },
  async () => {
    await using ws = await tempWorkspace({
      "a.txt": "hit\n",
      "b/c.txt": "hit\n",
      ".hidden": "hit\n",
    });
    const sandbox = await openCommandSandbox({
      mode: "workspace-write",
      writableRoots: [ws.dir],
      networkAccess: false,
    });
    try {
      const list = async (ctx: ToolContext) => {
        const seen: string[] = [];
        await rgRecords(["-l", "--null", "hit", "."], { cwd: ws.dir, separator: 0 }, ctx, (r) => {
          seen.push(r);
          return true;
        });
        return seen.sort();
      };
      const outside = await list(ws.ctx);
      assert.deepEqual(outside, ["./a.txt", "./b/c.txt"]);
      await sandbox.prepared?.();
      let prepared = 0;
      const counted: CommandSandbox = {
        ...sandbox,
        spawn: async (req) => {
          const child = await sandbox.spawn?.(req);
          if (child) prepared++;
          return child;
        },
      };
      assert.deepEqual(await list({ ...ws.ctx, sandbox: counted }), outside);
      assert.equal(prepared, 1, "rg ran in the sandbox prepared ahead");
      assert.deepEqual(
        await list({ ...ws.ctx, sandbox: { ...sandbox, spawn: undefined } }),
        outside,
      );

      // rg blocks opening the FIFO; told to stop, or aborted, it is killed and the call returns.
      const made = await new Deno.Command("mkfifo", { args: [join(ws.dir, "fifo")] }).output();
      assert.ok(made.success);
      const args = ["--line-buffered", "-j1", "hit", "a.txt", "fifo"];
      await sandbox.prepared?.();
      const seen: string[] = [];
      await rgRecords(args, { cwd: ws.dir, separator: 0x0a }, { ...ws.ctx, sandbox }, (r) => {
        seen.push(r);
        return false;
      });
      assert.deepEqual(seen, ["a.txt:hit"]);
      const abort = new AbortController();
      await sandbox.prepared?.();
      await assert.rejects(
        rgRecords(args, { cwd: ws.dir, separator: 0x0a }, {
          ...ws.ctx,
          sandbox,
          signal: abort.signal,
        }, () => {
          abort.abort();
          return true;
        }),
        (e) => (e as Error).name === "AbortError",
      );
    } finally {
      await sandbox.close();
    }
  },
);
