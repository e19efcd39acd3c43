/**
 * `@path` mentions and images (issue 34 §3) through the real CLI and the fake provider: exec's
 * prompt carries a mentioned file's text, an image mention is an image part on all three wires
 * and a note for a text-only model, `@` in an e-mail address or a code span is left alone, a
 * link out of the workspace is not followed, and the REPL attaches a mention and `/image`.
 */
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { join } from "node:path";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, interpreter, run, tempDirs } from "./_harness_env.ts";
import { startAgent, text } from "./_acp_client.ts";
import { pipedRepl } from "./_setups_repo.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  ),
  (c) => c.charCodeAt(0),
);
const PNG_HEAD = "iVBORw0KGgo";

/** A git repository with a notes file, an image and a folder, and a secret outside it. */
async function mentionRepo(dirs: { add(dir: Promise<string>): Promise<string> }) {
  const repo = await dirs.add(Deno.makeTempDir({ prefix: "oi-mentions-" }).then(Deno.realPath));
  const outside = await dirs.add(Deno.makeTempDir({ prefix: "oi-outside-" }));
  await Deno.writeTextFile(join(repo, "notes.txt"), "The launch code word is PELICAN.\n");
  await Deno.writeFile(join(repo, "dot.png"), PNG);
  await Deno.mkdir(join(repo, "src"));
  await Deno.writeTextFile(join(repo, "src", "main.py"), "print('hi')\n");
  await Deno.writeTextFile(join(outside, "secret.txt"), "OUTSIDE-SECRET\n");
  await Deno.writeTextFile(join(repo, "big.log"), "line of the log\n".repeat(10_000));
  await Deno.symlink(join(outside, "secret.txt"), join(repo, "leak.txt"));
  await run("git", ["init", "-q"], repo);
  return repo;
}

/** The body of the `index`th model request (a model listing, a GET, is not one). */
function bodyOf(fake: { requests: { method: string; body: unknown }[] }, index: number): string {
  return JSON.stringify(fake.requests.filter((r) => r.method === "POST")[index].body);
}

Deno.test("exec: @notes.txt carries the file's text; e-mail, code span, missing and outside paths are left alone", async () => {
  await using dirs = tempDirs();
  await using fake = startFakeProvider([{ reply: { text: "done" } }]);
  const repo = await mentionRepo(dirs);
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const prompt = "explain @notes.txt and @src/, mail bob@example.com, not `@dot.png`, " +
    "also @missing.txt, @leak.txt and @big.log.";
  const result = await interpreter(["exec", prompt], { cwd: repo, home });
  assert.equal(result.code, 0, result.stderr);
  const body = bodyOf(fake, 0);
  assert.match(body, /<file path=\\"notes.txt\\">\\nThe launch code word is PELICAN.\\n<\/file>/);
  assert.match(body, /<directory path=\\"src\/\\">\\nmain.py\\n<\/directory>/);
  // The typed text goes as typed.
  assert.ok(body.includes(JSON.stringify(prompt).slice(1, -1)), body);
  assert.doesNotMatch(body, /example\.com\\">|path=\\"dot.png|data:image|OUTSIDE-SECRET/);
  assert.match(
    body,
    /\\nline of the log\\n\[cut: the first 100 KiB of 157 KiB are shown; read the rest/,
  );
  assert.match(
    result.stderr,
    /^note: @big\.log is long: only its first 100 KiB of 157 KiB are attached$/m,
  );
  assert.match(
    result.stderr,
    /^note: @missing\.txt is left as typed: no such file .*missing\.txt$/m,
  );
  assert.match(
    result.stderr,
    /^note: @leak\.txt is left as typed: .*leak\.txt is outside the workspace$/m,
  );
});

for (
  const [wire, pattern] of [
    ["chat", /"type":"image_url","image_url":\{"url":"data:image\/png;base64,iVBORw0KGgo/],
    ["responses", /"type":"input_image","image_url":"data:image\/png;base64,iVBORw0KGgo/],
    [
      "messages",
      /"type":"image","source":\{"type":"base64","media_type":"image\/png","data":"iVBORw0KGgo/,
    ],
  ] as const
) {
  Deno.test(`exec: an image mention is an image part on the ${wire} wire`, async () => {
    await using dirs = tempDirs();
    await using fake = startFakeProvider([{ reply: { text: "a dot" } }]);
    const repo = await mentionRepo(dirs);
    const home = await dirs.add(fakeHome(wire === "messages" ? fake.origin : fake.baseUrl, wire));
    const result = await interpreter(["exec", "what is in @dot.png?"], { cwd: repo, home });
    assert.equal(result.code, 0, result.stderr);
    assert.match(bodyOf(fake, 0), pattern);
    assert.ok(bodyOf(fake, 0).includes(PNG_HEAD));
  });
}

Deno.test("exec: an image mention for a text-only model is a note, to the user and the model", async () => {
  await using dirs = tempDirs();
  await using fake = startFakeProvider([{ reply: { text: "cannot see" } }]);
  const repo = await mentionRepo(dirs);
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const result = await interpreter(
    ["exec", "-m", "deepseek-reasoner", "what is in @dot.png?"],
    { cwd: repo, home },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /^note: @dot\.png is an image and deepseek-reasoner does not take images/m,
  );
  const body = bodyOf(fake, 0);
  assert.match(
    body,
    /An image \(image\/png\) was left out: deepseek-reasoner does not take images/,
  );
  assert.ok(!body.includes(PNG_HEAD));
});

Deno.test("REPL: @mention, @~/ and /image go with the next prompt; a link into ~ is not followed", async () => {
  await using dirs = tempDirs();
  await using fake = startFakeProvider([{ reply: { text: "one" } }, { reply: { text: "two" } }]);
  const repo = await mentionRepo(dirs);
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const user = await dirs.add(Deno.makeTempDir({ prefix: "oi-user-home-" }));
  await Deno.writeTextFile(join(user, "todo.md"), "HOME-TODO\n");
  await Deno.writeTextFile(join(user, "key.txt"), "HOME-KEY\n");
  await Deno.symlink(join(user, "key.txt"), join(repo, "homelink.txt"));
  const stdin = "summarize @notes.txt, @~/todo.md and @homelink.txt\n/image dot.png\nand this?\n";
  const env = { NO_COLOR: "1", HOME: user };
  const result = await pipedRepl([], { cwd: repo, home, stdin, env });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(fake.requests.filter((r) => r.method === "POST").length, 2, result.stdout);
  assert.match(bodyOf(fake, 0), /<file path=\\"notes.txt\\">\\nThe launch code word is PELICAN/);
  assert.match(bodyOf(fake, 0), /<file path=\\"~\/todo.md\\">\\nHOME-TODO\\n/);
  assert.ok(!bodyOf(fake, 0).includes("HOME-KEY"), "a link into ~ is not followed");
  assert.match(
    result.stdout,
    /@homelink\.txt is left as typed: .*homelink\.txt is outside the workspace/,
  );
  assert.match(result.stdout, /Attached .*dot\.png: it goes with your next prompt/);
  const second = bodyOf(fake, 1);
  assert.match(second, /and this\?/);
  assert.equal(second.split(PNG_HEAD).length, 2, "the image goes once, with the second prompt");
});

Deno.test({
  name: "REPL on a terminal: Tab completes the path after @; a dropped image path sends the image" +
    SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using dirs = tempDirs();
    await using fake = startFakeProvider([{ reply: { text: "one" } }, { reply: { text: "two" } }]);
    const repo = await mentionRepo(dirs);
    const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
    await using pane = await Pane.open([], { repo, home });
    await pane.waitFor(PROMPT_LINE, 0, 60_000); // a first start may build the bundle
    let from = await pane.mark();
    await pane.type("explain @no", false);
    await pane.key("Tab");
    await pane.waitFor(/explain @notes\.txt$/m, from);
    await pane.key("Enter");
    await pane.settled(from);
    assert.match(bodyOf(fake, 0), /<file path=\\"notes.txt\\">\\nThe launch code word is PELICAN/);
    from = await pane.mark();
    await pane.paste(`'${join(repo, "dot.png")}'`);
    await pane.key("Enter");
    await pane.settled(from);
    assert.equal(fake.requests.filter((r) => r.method === "POST").length, 2);
    assert.ok(bodyOf(fake, 1).includes(PNG_HEAD), "the dropped image went with the prompt");
  },
});

Deno.test("ACP: @path in a prompt's text attaches the file; a missing one is left with a note", async () => {
  await using dirs = tempDirs();
  await using fake = startFakeProvider([{ reply: { text: "read it" } }]);
  const repo = await mentionRepo(dirs);
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const a = startAgent([], { cwd: repo, home });
  try {
    await a.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    const { sessionId } = await a.agent.request(acp.methods.agent.session.new, {
      cwd: repo,
      mcpServers: [],
    });
    const done = await a.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "explain @notes.txt and @gone.txt" }],
    });
    assert.equal(done.stopReason, "end_turn");
    assert.match(bodyOf(fake, 0), /<file path=\\"notes.txt\\">\\nThe launch code word is PELICAN/);
    assert.match(
      text(a.updates, "agent_message_chunk"),
      /@gone\.txt is left as typed: no such file/,
    );
  } finally {
    assert.equal((await a.close()).code, 0, a.stderr());
  }
});
