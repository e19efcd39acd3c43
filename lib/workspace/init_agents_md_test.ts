import assert from "node:assert/strict";
import { join } from "node:path";
import { finishInit, planInit } from "./init_agents_md.ts";

const exists = (path: string) => Deno.lstat(path).then(() => true, () => false);

Deno.test("finishInit() moves the draft only over the AGENTS.md the user agreed to", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_init_" });
  try {
    const target = join(dir, "AGENTS.md");
    const never = () => Promise.reject(new Error("not asked here"));

    // No AGENTS.md: the draft becomes it.
    let plan = await planInit(dir);
    assert.match(plan.prompt, new RegExp(`write the file to ${plan.draft}\\.`));
    assert.doesNotMatch(plan.prompt, /\{(draft|target|existing)\}|replaces the AGENTS\.md/);
    await Deno.writeTextFile(plan.draft, "# First\n");
    let result = await finishInit(plan, { completed: true, confirmReplace: never });
    assert.equal(result.status, "written");
    assert.equal(await Deno.readTextFile(target), "# First\n");
    assert.equal(await exists(plan.draft), false);

    // The user agreed to replace it, but it changed during the turn: asked again; no keeps it.
    plan = await planInit(dir);
    assert.match(plan.prompt, /It replaces the AGENTS\.md there now/);
    await Deno.writeTextFile(plan.draft, "# Second\n");
    await Deno.writeTextFile(target, "# Edited meanwhile\n");
    let asked = 0;
    const no = () => Promise.resolve(asked++ < 0);
    result = await finishInit(plan, { completed: true, confirmReplace: no });
    assert.deepEqual([result.status, asked], ["kept", 1]);
    assert.equal(await Deno.readTextFile(target), "# Edited meanwhile\n");
    assert.equal(await exists(plan.draft), false);

    // A turn that did not finish moves nothing.
    plan = await planInit(dir);
    await Deno.writeTextFile(plan.draft, "# Third\n");
    result = await finishInit(plan, { completed: false, confirmReplace: never });
    assert.equal(result.status, "not_written");
    assert.equal(await Deno.readTextFile(target), "# Edited meanwhile\n");
    assert.equal(await exists(plan.draft), false);

    // Unchanged since the yes: replaced without asking again.
    plan = await planInit(dir);
    await Deno.writeTextFile(plan.draft, "# Fourth\n");
    result = await finishInit(plan, { completed: true, confirmReplace: never });
    assert.equal(result.status, "replaced");
    assert.equal(await Deno.readTextFile(target), "# Fourth\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
