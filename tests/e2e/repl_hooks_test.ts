/**
 * `/hooks` in the REPL on a terminal: the REPL asks at start whether to trust a trusted
 * project's untrusted hook; after a no it is listed as untrusted and does not run (one warning
 * at start says so) until the user trusts it with `/hooks trust 1` and a yes; from the next
 * prompt on it runs, its output reaching the model as context.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { replEnv } from "./_repl_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

Deno.test({
  name: "an untrusted project hook does not run until /hooks trust 1 and a yes" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await replEnv([
      { reply: { text: "one" } },
      { expect: { user_contains: "hook-context-line" }, reply: { text: "two" } },
    ]);
    const { repo, home, fake } = env;
    const marker = join(home, "marker");
    const script = join(home, "hook.sh");
    await Deno.writeTextFile(
      script,
      `cat > /dev/null; echo ran >> '${marker}'; echo hook-context-line\n`,
    );
    await Deno.mkdir(join(repo, ".openinterpreter"));
    await Deno.writeTextFile(
      join(repo, ".openinterpreter", "config.toml"),
      `[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ntype = "command"\n` +
        `command = "sh '${script}'"\n`,
    );
    await Deno.writeTextFile(
      join(home, "config.toml"),
      `\n[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n`,
      { append: true },
    );
    const ran = () => Deno.readTextFile(marker).catch(() => "");
    await using pane = await Pane.open([], { repo, home });
    const asked = await pane.waitFor(/Trust it\? \[y\/N\] $/m);
    assert.match(asked, /defines 1 hook you have not trusted yet/);
    assert.match(asked, /^ {2}1\. hook UserPromptSubmit: sh '/m);
    let from = await pane.mark();
    await pane.type("n");
    const start = await pane.waitFor(PROMPT_LINE, from);
    assert.match(start, /Not trusted: they stay off/);
    assert.match(start, /1 hook of the project ".*" is not trusted yet and will not run/);

    from = await pane.mark();
    await pane.type("first");
    await pane.settled(from);
    assert.equal(await ran(), "", "the untrusted hook did not run");

    from = await pane.mark();
    await pane.type("/hooks");
    const list = await pane.settled(from);
    assert.match(list, /^1\. UserPromptSubmit {2}untrusted: \/hooks trust 1$/m);
    assert.match(list, /^ {3}project: .*\.openinterpreter\/config\.toml$/m);

    from = await pane.mark();
    await pane.type("/hooks trust 1");
    await pane.waitFor(/Trust it\? \[y\/N\] $/m, from);
    await pane.type("y");
    assert.match(await pane.settled(from), /^Trusted hook 1: UserPromptSubmit sh /m);

    from = await pane.mark();
    await pane.type("second");
    await pane.settled(from);
    assert.equal(await ran(), "ran\n");
    assert.deepEqual(fake.failures, []);
    const trust = JSON.parse(await Deno.readTextFile(join(home, "trust.json")));
    assert.equal(trust.projects[repo].definitions.length, 1);
    await pane.type("/quit");
    await pane.waitFor(/EXIT:0/);
  },
});
