/**
 * The compaction contract (issue 34, item 8), on the real CLI against the scripted fake provider:
 * an 8k window that long tool outputs fill again and again. After every compaction the opening
 * context (AGENTS.md in minimal's system prompt; in claude-code-bare's first user message, as a
 * reminder before the prompt) is in each request exactly as in the first one, the user's request is there word for word, and no request, the summary requests
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
function script(chapters: number, tool: { name: string; args: string }): ScriptTurn[] {
  const reads: ScriptTurn[] = Array.from({ length: chapters }, (_, i) => ({
    reply: {
      text: `Notes ${i + 1}: the chapters so far are about the ship's log; no walnuts yet.`,
      tool_calls: [{ name: tool.name, args: { [tool.args]: `cat chapter${i + 1}.txt` } }],
    },
  }));
  const answer = { reply: { text: "None of the chapters mentions walnuts." } };
  return [...reads, ...Array.from({ length: 30 }, () => answer)];
}

interface Body {
  messages: { role: string; content: string | { type: string; text?: string }[] }[];
  max_tokens?: number;
}

/** Tokens as the fake provider reports them: a quarter of the request's characters. */
const tokens = (body: unknown) => Math.ceil(JSON.stringify(body).length / 4);

const isSummaryRequest = (body: Body) => JSON.stringify(body).includes(SUMMARY_ASK);

/** The text of a message's content, its parts joined (Chat sends one string, or parts). */
function textOf(content: Body["messages"][number]["content"]): string {
  return typeof content === "string" ? content : content.map((p) => p.text ?? "").join("\n\n");
}

/** Runs the chapter-reading task on an 8k window under `harness`; checks the contract. */
async function contract(harness: string, tool: { name: string; args: string }) {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await Deno.writeTextFile(join(repo, "AGENTS.md"), `${AGENTS}\n`);
  const chapters = 48;
  for (let n = 1; n <= chapters; n++) {
    await Deno.writeTextFile(join(repo, `chapter${n}.txt`), chapter(n, n % 4 === 0));
  }
  await using fake = startFakeProvider(script(chapters, tool));
  const home = await dirs.add(fakeHome(
    fake.baseUrl,
    "chat",
    `model_context_window = ${WINDOW}\nmodel_auto_compact_token_limit = 6000\n`,
  ));
  const result = await interpreter(["exec", "--harness", harness, REQUEST], { cwd: repo, home });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(fake.failures, []);
  const bodies = fake.requests.map((r) => r.body as Body);
  const turns = bodies.filter((b) => !isSummaryRequest(b));
  // The opening: the messages before the user's request, and the context put before it.
  const at = turns[0].messages.findIndex((m) => textOf(m.content).includes(REQUEST));
  const before = JSON.stringify(turns[0].messages.slice(0, at));
  const prefix = textOf(turns[0].messages[at].content).split(REQUEST)[0];
  assert.ok((before + prefix).includes(AGENTS), "AGENTS.md opens the conversation");
  for (const [i, body] of turns.entries()) {
    assert.equal(JSON.stringify(body.messages.slice(0, at)), before, `turn request ${i + 1}`);
    assert.ok(textOf(body.messages[at].content).startsWith(prefix), `turn request ${i + 1}`);
    assert.ok(
      body.messages.some((m) => m.role === "user" && textOf(m.content).includes(REQUEST)),
      `turn request ${i + 1} carries the user's request word for word`,
    );
  }
  // Each request fits the window; a summary request with the reply it leaves room for. (A turn
  // request's output limit is the harness's: claude-code-bare asks for Claude Code's 32000.)
  for (const [i, body] of bodies.entries()) {
    const size = tokens(body) + (isSummaryRequest(body) ? body.max_tokens ?? 0 : 0);
    assert.ok(size <= WINDOW, `request ${i + 1} needs ${size} tokens`);
  }
  const compactions =
    bodies.filter((b, i) => isSummaryRequest(b) && !isSummaryRequest(bodies[i + 1]))
      .length;
  assert.ok(compactions >= 10, `${compactions} compactions`);
  const summaries = bodies.length - turns.length;
  assert.ok(summaries > compactions, "some history was summarised in parts");
  assert.equal(result.stdout.trim(), "None of the chapters mentions walnuts.");
}

Deno.test("10 compactions on an 8k window keep AGENTS.md in the system prompt and the request verbatim, no request past the window", async () => {
  await contract("minimal", { name: "bash", args: "command" });
});

Deno.test("10 compactions on an 8k window keep AGENTS.md before the first prompt and the request verbatim, no request past the window", async () => {
  await contract("claude-code-bare", { name: "Bash", args: "command" });
});
