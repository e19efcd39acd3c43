import assert from "node:assert/strict";
import { join } from "node:path";
import { replEnv } from "./_repl_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

const ADD_NOTES = "*** Begin Patch\n*** Add File: notes.txt\n+remember the milk\n*** End Patch\n";
const PLAN_LINE = /^plan › $/m;
const CHOICE = /go, edit or stop\? \[g\/e\/s\] › $/m;

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

Deno.test({
  name: "/plan runs turns read-only and ends them with a plan: stop keeps planning, go " +
    "carries it out with the session's permissions" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await replEnv([
      {
        expect: { user_contains: "Plan mode is on" },
        reply: { tool_calls: [{ name: "apply_patch", args: { input: ADD_NOTES } }] },
      },
      {
        expect: { last_tool_result_contains: "Plan mode is on: apply_patch can change files" },
        reply: { tool_calls: [{ name: "exec_command", args: { cmd: "touch made.txt" } }] },
      },
      {
        reply: {
          tool_calls: [{
            name: "update_plan",
            args: {
              plan: [
                { step: "Add notes.txt", status: "pending" },
                { step: "Run the tests", status: "pending" },
              ],
            },
          }],
        },
      },
      { reply: { text: "That is my plan." } },
      {
        expect: { user_contains: "also list the milk" },
        reply: { text: "1. Add notes.txt with the milk\n2. Run the tests" },
      },
      {
        expect: { user_contains: "The plan is approved" },
        reply: { tool_calls: [{ name: "apply_patch", args: { input: ADD_NOTES } }] },
      },
      { reply: { text: "Done." } },
    ]);
    const { fake, repo, home } = env;
    await using pane = await Pane.open(["-s", "workspace-write"], { repo, home });
    await pane.waitFor(PROMPT_LINE);
    let from = await pane.mark();
    await pane.type("/plan");
    await pane.waitFor(/Plan mode on: [\s\S]*^plan › $/m, from);

    from = await pane.mark();
    await pane.type("plan the notes");
    let out = await pane.waitFor(CHOICE, from);
    assert.match(out, /denied: Plan mode is on: apply_patch can change files/);
    assert.match(out, /Plan:\n {2}1\. Add notes\.txt\n {2}2\. Run the tests\n/);
    assert.equal(await exists(join(repo, "notes.txt")), false, "the edit was refused");
    assert.equal(await exists(join(repo, "made.txt")), false, "the command ran read-only");
    // Without bubblewrap there is no read-only sandbox, and plan mode refuses the command instead.
    assert.match(JSON.stringify(fake.requests[2].body), /Read-only file system|no OS sandbox/);

    from = await pane.mark();
    await pane.type("s");
    out = await pane.waitFor(PLAN_LINE, from);
    assert.match(out, /Still in plan mode/);
    assert.equal(fake.requests.length, 4, "stop sends nothing");

    from = await pane.mark();
    await pane.type("also list the milk");
    out = await pane.waitFor(CHOICE, from);
    assert.match(out, /Plan:\n {2}1\. Add notes\.txt with the milk\n {2}2\. Run the tests\n/);
    await pane.type("g");
    out = await pane.waitFor(/Done\.[\s\S]*^› $/m, from);
    assert.match(out, /Plan mode off: carrying out the plan/);
    assert.equal(await Deno.readTextFile(join(repo, "notes.txt")), "remember the milk\n");
    assert.deepEqual(fake.failures, []);
    assert.equal(fake.remaining(), 0);
    const approved = JSON.stringify(fake.requests[5].body);
    assert.match(
      approved,
      /That is my plan\.[\s\S]*also list the milk/,
      "the plan is in context",
    );
    assert.doesNotMatch(
      approved.slice(approved.lastIndexOf("The plan is approved")),
      /Plan mode is on/,
      "the approval runs outside plan mode",
    );
    await pane.type("/exit");
    await pane.waitFor(/^EXIT:0$/m, from);
  },
});
