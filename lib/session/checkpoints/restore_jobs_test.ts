/**
 * A restore while a background job the model started still runs: without anyone to ask (exec,
 * ACP) it is refused, naming the job; asked and told no, nothing is restored; told yes, the job
 * is stopped and the files come back. The control: with no job running nothing is asked. Under
 * danger-full-access the result says the restore ran unconfined; under bwrap it does not.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseScript, startFakeProvider } from "../../../tests/fake_provider/server.ts";
import { sessionWorkspace } from "../_test_session.ts";
import { openSession } from "../open.ts";
import { need } from "../../../sandbox/_test_requires.ts";

const BWRAP = await need("bwrap");

const script = (turns: unknown[]) => parseScript(turns.map((t) => JSON.stringify(t)).join("\n"));
const bash = (id: string, command: string, background = false) => ({
  reply: {
    tool_calls: [{
      id,
      name: "Bash",
      args: { command, description: "run", ...(background ? { run_in_background: true } : {}) },
    }],
  },
});
const never = () => Promise.reject(new Error("confirm must not be asked"));

for (const sandbox of ["danger-full-access", "workspace-write"] as const) {
  const ignore = sandbox === "workspace-write" && BWRAP.ignore;
  Deno.test({
    name: `undo stops a running background job only after a yes (${sandbox})` +
      (ignore ? BWRAP.note : ""),
    ignore,
    async fn() {
      await using fake = await startFakeProvider(script([
        bash("c1", "echo two > a.txt"),
        bash("c2", "sleep 300", true),
        { reply: { text: "started" } },
        bash("c3", "echo three > a.txt"),
        { reply: { text: "again" } },
      ]));
      await using ws = await sessionWorkspace(fake.baseUrl);
      const file = join(ws.cwd, "a.txt");
      await Deno.writeTextFile(file, "one\n");
      await using session = await openSession(
        { cwd: ws.cwd, harness: "claude-code", sandbox, origin: "repl" },
        { onEvent: () => {} },
        { env: ws.env },
      );
      const signal = new AbortController().signal;
      await session.prompt("change a.txt and start a server", signal);
      const [job] = session.jobs();
      assert.equal(job?.status, "running");

      await assert.rejects(
        session.undo(never),
        new RegExp(`Cannot restore files while this runs: background job ${job.id}: sleep 300`),
      );
      const asked: string[][] = [];
      await assert.rejects(
        session.undo(never, (running) => {
          asked.push(running);
          return Promise.resolve(false);
        }),
        /Nothing was restored: background job .* still runs/,
      );
      assert.deepEqual(asked, [[`background job ${job.id}: sleep 300`]]);
      assert.equal(await Deno.readTextFile(file), "two\n");
      assert.equal(session.jobs()[0].status, "running");

      const undone = await session.undo(never, () => Promise.resolve(true));
      assert.deepEqual([undone.restored, undone.failed], [["a.txt"], []]);
      assert.equal(await Deno.readTextFile(file), "one\n");
      assert.equal(session.jobs()[0].status, "completed");
      if (sandbox === "danger-full-access") {
        assert.match(undone.unconfined ?? "", /ran unconfined \(sandbox_mode is danger-full/);
      } else {
        assert.equal(undone.unconfined, undefined);
      }

      // The control: nothing runs, so nothing is asked.
      await session.prompt("change it again", signal);
      const again = await session.undo(never, () => Promise.reject(new Error("not asked")));
      assert.deepEqual(again.restored, ["a.txt"]);
      assert.equal(await Deno.readTextFile(file), "one\n");
      assert.deepEqual(fake.failures, []);
    },
  });
}
