/**
 * The compaction contract (issue 34, item 8), on the real CLI against the scripted fake provider:
 * an 8k window that long tool outputs fill again and again. After every compaction the opening
 * context (minimal's system prompt with AGENTS.md in it) is in each request exactly as in the
 * first one, the user's request is there word for word, and no request, the summary requests
 * included, passes the window, even when one tool output alone brings the history past it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type ScriptTurn, startFakeProvider } from "./fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, tempDirs } from "./e2e/_harness_env.ts";

const WINDOW = 8192;
const AGENTS = "Project rule 7: run `deno task check` before you say you are done.";
const REQUEST = "Read every chapter file, one per command, and tell me which one mentions walnuts.";
const SUMMARY_ASK = "The conversation is about to be shortened";

/** A chapter of plain prose; `long` ones alone fill half the window. */
function chapter(n: number, long: boolean): string {
  const line = `Chapter ${n}: the ship's log notes the tide, the wind and the cargo count. `;
  return line.repeat(long ? 220 : 80);
}

/**
 * Each reply reads the next chapter, and says a few words that serve as the summary when the
 * request was a compaction's (the fake cannot tell them apart: the order of requests depends on
 * the session's own counts, so every turn has to fit either role); then the answer, several
 * times over, so that a summary request taking one still leaves one to end the turn.
 */
function script(chapters: number): ScriptTurn[] {
  const reads: ScriptTurn[] = Array.from({ length: chapters }, (_, i) => ({
    reply: {
      text: `Notes ${i + 1}: the chapters so far are about the ship's log; no walnuts yet.`,
      tool_calls: [{ name: "bash", args: { command: `cat chapter${i + 1}.txt` } }],
    },
  }));
  const answer = { reply: { text: "None of the chapters mentions walnuts." } };
  return [...reads, ...Array.from({ length: 30 }, () => answer)];
}

interface Body {
  messages: { role: string; content: unknown }[];
  max_tokens?: number;
}

/** Tokens as the fake provider reports them: a quarter of the request's characters. */
const tokens = (body: unknown) => Math.ceil(JSON.stringify(body).length / 4);

const isSummaryRequest = (body: Body) => JSON.stringify(body).includes(SUMMARY_ASK);

Deno.test("10 compactions on an 8k window keep the opening context and the request verbatim, and no request passes the window", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await Deno.writeTextFile(join(repo, "AGENTS.md"), `${AGENTS}\n`);
  const chapters = 48;
  for (let n = 1; n <= chapters; n++) {
    await Deno.writeTextFile(join(repo, `chapter${n}.txt`), chapter(n, n % 4 === 0));
  }
  await using fake = startFakeProvider(script(chapters));
  const home = await dirs.add(fakeHome(
    fake.baseUrl,
    "chat",
    `model_context_window = ${WINDOW}\nmodel_auto_compact_token_limit = 6000\n`,
  ));
  const result = await interpreter(["exec", "--harness", "minimal", REQUEST], { cwd: repo, home });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(fake.failures, []);
  const bodies = fake.requests.map((r) => r.body as Body);
  const summaries = bodies.filter(isSummaryRequest);
  const turns = bodies.filter((b) => !isSummaryRequest(b));
  // The opening as the first request had it: the system message and the items before the prompt.
  const first = turns[0].messages;
  const promptAt = first.findIndex((m) => JSON.stringify(m.content).includes(REQUEST));
  const opening = JSON.stringify(first.slice(0, promptAt));
  assert.ok(opening.includes(AGENTS), "AGENTS.md opens the conversation");
  for (const [i, body] of turns.entries()) {
    assert.equal(
      JSON.stringify(body.messages.slice(0, promptAt)),
      opening,
      `turn request ${i + 1}`,
    );
    assert.ok(
      body.messages.some((m) => m.role === "user" && JSON.stringify(m.content).includes(REQUEST)),
      `turn request ${i + 1} carries the user's request word for word`,
    );
  }
  // Each summary request, with the reply it leaves room for, fits the window.
  for (const [i, body] of bodies.entries()) {
    const size = tokens(body) + (body.max_tokens ?? 0);
    assert.ok(size <= WINDOW, `request ${i + 1} needs ${size} tokens`);
  }
  const compactions =
    bodies.filter((b, i) => isSummaryRequest(b) && !isSummaryRequest(bodies[i + 1]))
      .length;
  assert.ok(compactions >= 10, `${compactions} compactions`);
  assert.ok(summaries.length > compactions, "some history was summarised in parts");
  assert.equal(result.stdout.trim(), "None of the chapters mentions walnuts.");
});
