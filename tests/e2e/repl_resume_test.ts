import assert from "node:assert/strict";
import { readSession, type SessionRecord } from "../../lib/store/mod.ts";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo } from "./_harness_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";
import { findSessions } from "../../lib/store/mod.ts";

const answer = (text: string) => ({ reply: { text } });

/** A request's messages, with the times of day it carries blanked. */
function messagesOf(body: unknown): unknown[] {
  const text = JSON.stringify((body as { messages: unknown[] }).messages);
  return JSON.parse(text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>"));
}

/** The user and assistant texts of a session file's messages, in file order. */
function spoken(events: SessionRecord[]): string[] {
  return events.flatMap((e) => {
    if (e.type !== "user_message" && e.type !== "assistant_message") return [];
    const text = e.message.blocks.flatMap((b) => b.type === "text" ? [b.text] : []).join(" ");
    return [`${e.message.role}: ${text}`];
  });
}

Deno.test({
  name: "a REPL session survives /harness, /compact and a resume: the resumed request is the " +
    "live one plus the new prompt, the recap shows the last exchanges, /new keeps the harness" +
    SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using fake = await startFakeProvider([
      answer("answer alpha"),
      { expect: { tools_include: ["Bash"] }, ...answer("answer beta") },
      answer("the summary of alpha and beta"),
      answer("answer gamma"),
      { expect: { tools_include: ["Bash"], user_contains: "delta" }, ...answer("answer delta") },
    ], { allowTranslatedCalls: true });
    const repo = await fixtureRepo("habits");
    const home = await fakeHome(fake.baseUrl, "chat");
    try {
      {
        await using pane = await Pane.open([], { repo, home });
        await pane.waitFor(PROMPT_LINE);
        for (const line of ["alpha question", "/harness claude-code", "beta question"]) {
          const from = await pane.mark();
          await pane.type(line);
          await pane.settled(from);
        }
        let from = await pane.mark();
        await pane.type("/compact");
        await pane.settled(from);
        from = await pane.mark();
        await pane.type("gamma question");
        await pane.waitFor(/answer gamma[\s\S]*› $/m, from);
        await pane.type("/exit");
        await pane.waitFor(/^EXIT:0$/m, from);
      }
      const live = messagesOf(fake.requests[3].body);
      assert.match(JSON.stringify(live), /<system-reminder>[\s\S]*the summary of alpha/);

      await using pane = await Pane.open(["resume", "--last"], { repo, home });
      const opened = await pane.waitFor(PROMPT_LINE);
      assert.match(opened, /harness claude-code/);
      // The recap: the last prompts with their answers, before the prompt.
      assert.match(opened, /› beta question[\s\S]*› gamma question\n {0,2}answer gamma/);
      let from = await pane.mark();
      await pane.type("delta question");
      await pane.waitFor(/answer delta[\s\S]*› $/m, from);
      const resumed = messagesOf(fake.requests[4].body);
      assert.deepEqual(resumed.slice(0, live.length), live);
      assert.deepEqual(
        resumed.slice(live.length),
        [
          { role: "assistant", content: "answer gamma" },
          { role: "user", content: "delta question" },
        ],
      );
      assert.deepEqual(fake.failures, []);

      from = await pane.mark();
      await pane.type("/new");
      assert.match(await pane.settled(from), /harness claude-code/);
      await pane.type("/exit");
      await pane.waitFor(/^EXIT:0$/m, from);

      const [session] = await findSessions(home, { cwd: repo, withPrompt: true });
      const said = spoken((await readSession(session.file)).events);
      assert.equal(said.filter((s) => s === "assistant: answer alpha").length, 1);
      assert.deepEqual(said.slice(-3), [
        "assistant: answer gamma",
        "user: delta question",
        "assistant: answer delta",
      ]);
    } finally {
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(home, { recursive: true });
    }
  },
});
