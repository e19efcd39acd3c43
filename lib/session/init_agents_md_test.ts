import assert from "node:assert/strict";
import { join } from "node:path";
import { runInit } from "./init_agents_md.ts";
import type { PromptOutcome, Session } from "./types.ts";

/** The part of a session `/init` reads. */
function sessionIn(cwd: string, planMode = false): Session {
  return { planMode, info: { cwd } } as unknown as Session;
}

const done: PromptOutcome = { status: "completed", finalText: "done" };

Deno.test("runInit() moves the model's draft into place after a completed turn", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "init-" });
  try {
    const asked: string[] = [];
    const run = await runInit(sessionIn(cwd), {
      confirmReplace: (_, when) => (asked.push(when), Promise.resolve(true)),
      runTurn: async (prompt) => {
        assert.match(prompt, /AGENTS\.init\.md/);
        await Deno.writeTextFile(join(cwd, "AGENTS.init.md"), "# Notes\n");
        return done;
      },
    });
    assert.equal(run.status, "ran");
    assert.equal(await Deno.readTextFile(join(cwd, "AGENTS.md")), "# Notes\n");
    assert.deepEqual(asked, [], "no AGENTS.md was there, so nothing is asked");
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("runInit() asks before replacing AGENTS.md, sends nothing on a no, and refuses in plan mode", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "init-" });
  try {
    await Deno.writeTextFile(join(cwd, "AGENTS.md"), "mine\n");
    let turns = 0;
    const io = {
      confirmReplace: (target: string, when: string) => {
        assert.equal(target, join(cwd, "AGENTS.md"));
        assert.equal(when, "exists");
        return Promise.resolve(false);
      },
      runTurn: () => (turns++, Promise.resolve(done)),
    };
    assert.deepEqual(await runInit(sessionIn(cwd), io), {
      status: "kept",
      target: join(cwd, "AGENTS.md"),
    });
    assert.deepEqual(await runInit(sessionIn(cwd, true), io), { status: "plan_mode" });
    assert.equal(turns, 0);
    assert.equal(await Deno.readTextFile(join(cwd, "AGENTS.md")), "mine\n");
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
