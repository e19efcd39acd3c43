/**
 * `/mcp` in the REPL on a terminal, with a real MCP server (built with the official SDK) and one
 * that cannot start: their states, tools and arguments, and the note a text-protocol harness gets.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../fake_provider/server.ts";
import { assertNoProcesses, serversToml, testServer } from "../mcp/_servers.ts";
import { fakeHome, fixtureRepo } from "./_harness_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";
import { until } from "./_poll.ts";

/** Types `/mcp …` until its output matches `pattern` (servers start beside the prompt). */
async function mcpUntil(pane: Pane, line: string, pattern: RegExp): Promise<string> {
  let out = "";
  // On time-out the caller's assertion shows the last output.
  await until(`${line} to show ${pattern}`, async () => {
    const from = await pane.mark();
    await pane.type(line);
    out = await pane.settled(from);
    return pattern.test(out);
  }, 30_000).catch(() => {});
  return out;
}

Deno.test({
  name: "/mcp shows each server's state and tools, /mcp ID one in full, and the note of a " +
    "text-protocol harness" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using fake = startFakeProvider([]);
    const repo = await fixtureRepo("habits");
    const marker = `oi-repl-mcp-${crypto.randomUUID().slice(0, 8)}`;
    const servers = serversToml({
      tools: testServer("plain", marker),
      gone: { command: join(repo, "no-such-mcp-server") },
    });
    const home = await fakeHome(fake.baseUrl, "chat", "");
    await Deno.writeTextFile(join(home, "config.toml"), `\n${servers}\n`, { append: true });
    try {
      {
        await using pane = await Pane.open(["--harness", "native"], { repo, home });
        await pane.waitFor(PROMPT_LINE);
        const list = await mcpUntil(pane, "/mcp", /tools +ready, 1 tool · stdio/);
        assert.match(
          list,
          /^tools +ready, 1 tool · stdio\n {4}boom {2}Exits the process, or says/m,
        );
        assert.match(list, /^gone +failed · stdio\n {4}\S/m);
        const full = await mcpUntil(pane, "/mcp tools", /boom/);
        assert.match(
          full,
          /^tools {2}ready, 1 tool · stdio\n {2}command: .*_test_server\.ts plain/m,
        );
        assert.match(
          full,
          /^ {4}boom\n {6}Exits the process, or says it survived\n {6}no arguments$/m,
        );
        let from = await pane.mark();
        await pane.type("/harness swe-agent");
        await pane.settled(from);
        from = await pane.mark();
        await pane.type("/mcp");
        const note = await pane.settled(from);
        assert.match(note, /The swe-agent harness talks to the model in a text protocol, so it/);
        await pane.type("/quit");
        await pane.waitFor(/EXIT:0/);
      }
      await assertNoProcesses(marker);
    } finally {
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test({
  name: "a warning that arrives while the prompt waits is printed above it, and the prompt comes " +
    "back with what was typed" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using fake = startFakeProvider([]);
    const repo = await fixtureRepo("habits");
    const go = join(repo, "fail-now");
    // A server that fails to start only once the test says so: its warning comes after the prompt.
    const servers = serversToml({
      late: { command: "sh", args: ["-c", `while [ ! -e '${go}' ]; do sleep 0.05; done; exit 3`] },
    });
    const home = await fakeHome(fake.baseUrl, "chat", "");
    await Deno.writeTextFile(join(home, "config.toml"), `\n${servers}\n`, { append: true });
    try {
      await using pane = await Pane.open(["--harness", "native"], { repo, home });
      await pane.waitFor(PROMPT_LINE);
      await pane.type("half typed", false);
      await pane.waitFor(/^› half typed$/m);
      await Deno.writeTextFile(go, "");
      const screen = await pane.waitFor(/MCP server "late" did not start[^]*\n› half typed$/m);
      assert.doesNotMatch(screen, /› (half typed)?warning:/);
      await pane.type("\u0015/quit");
      await pane.waitFor(/EXIT:0/);
    } finally {
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(home, { recursive: true });
    }
  },
});
