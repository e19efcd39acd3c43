/**
 * `exec --json` for the harnesses whose habits tests run plain `exec` (native on every wire, the
 * text protocols): each fixes the habit tracker with its own tools (the habits scripts), and every
 * stdout line must be one event of the Codex SDK's types, with the tool calls mapped to item kinds
 * by capability, whatever the harness calls them. The other harnesses' habits tests run with
 * `--json` themselves (`habitsCase`'s `json` option), so each harness's script runs once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadScript, startFakeProvider } from "../fake_provider/server.ts";
import { assertJsonRun } from "./_habits.ts";
import { fakeHome, fixtureRepo, interpreter, REPO } from "./_harness_env.ts";
import { need } from "../../sandbox/_test_requires.ts";

const TMUX = await need("tmux");

/** A harness on one of its wires, and the item kinds its habits script must produce. */
export interface ExecJsonCase {
  harness: string;
  wire: string;
  kinds: string[];
}

/** Registers one test per case. */
export function execJsonCases(cases: ExecJsonCase[]): void {
  for (const c of cases) {
    const tmux = c.harness === "terminus-2";
    Deno.test({
      name: `exec --json with the ${c.harness} harness prints only SDK-typed events` +
        (tmux ? TMUX.note : ""),
      ignore: tmux && TMUX.ignore,
      async fn() {
        let home = "";
        const repo = await fixtureRepo("habits");
        await using _cleanup = { [Symbol.asyncDispose]: () => removeAll(repo, home) };
        const script = `habits_${c.harness.replaceAll("-", "_")}.jsonl`;
        await using fake = await startFakeProvider(
          await loadScript(join(REPO, "tests", "fixtures", "scripts", script)),
        );
        home = await fakeHome(fake.baseUrl, c.wire);
        const result = await interpreter(
          ["exec", "--json", "--harness", c.harness, "fix the failing test"],
          { cwd: repo, home },
        );
        assert.equal(result.code, 0, result.stderr);
        assertJsonRun(result.stdout, c.kinds, repo);
      },
    });
  }
}

async function removeAll(...paths: string[]): Promise<void> {
  for (const path of paths) if (path) await Deno.remove(path, { recursive: true });
}
