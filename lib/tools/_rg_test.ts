import assert from "node:assert/strict";
import { join } from "node:path";
import { rgRecords } from "./_rg.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { need } from "../../sandbox/_test_requires.ts";

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
