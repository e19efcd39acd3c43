import assert from "node:assert/strict";
import { dirname } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { tempWorkspace } from "./_test_workspace.ts";
import { TERMINAL_RESOURCE, terminalKeys, type TerminalKeysOutput } from "./terminal_keys.ts";
import type { ToolContext } from "./capability.ts";
import { need } from "../../sandbox/_test_requires.ts";

/** Tests need a real tmux; without one they are skipped, and their names say why. */
const TMUX = await need("tmux");
const ignore = TMUX.ignore;
const SKIP = TMUX.note;

function keys(keystrokes: string, ctx: ToolContext, duration_s = 0): Promise<TerminalKeysOutput> {
  return terminalKeys.run({ keystrokes, duration_s }, ctx);
}

async function serverRunning(socket: string): Promise<boolean> {
  const out = await new Deno.Command("tmux", { args: ["-S", socket, "ls"], stderr: "null" })
    .output().catch(() => undefined);
  return out?.success ?? false;
}

Deno.test({
  name: "terminalKeys() types into one lasting shell and reports only the new output" + SKIP,
  ignore,
  async fn() {
    await using ws = await tempWorkspace({ "a.txt": "alpha\n" });
    const first = await keys("cd sub 2>/dev/null; X=42; cat a.txt\n", ws.ctx);
    assert.match(first.newOutput ?? "", /# cd sub 2>\/dev\/null; X=42; cat a\.txt\nalpha\n\S+# ?$/);
    const second = await keys("echo value=$X\n", ws.ctx);
    assert.doesNotMatch(second.newOutput ?? "", /alpha/, "earlier output is not repeated");
    assert.match(second.newOutput ?? "", /echo value=\$X\nvalue=42\n/);
    assert.match(second.screen, /alpha[\s\S]*value=42/);
    const term = ws.ctx.resources.get(TERMINAL_RESOURCE)!;
    assert.equal(ws.ctx.state.size, 0, "the terminal is not session data");
    assert.ok(await serverRunning(term.socket));
    await term[Symbol.asyncDispose]();
    assert.equal(await serverRunning(term.socket), false, "dispose kills the tmux server");
  },
});

Deno.test({
  name: "terminalKeys() sends Enter and C-c as keys and waits for the duration asked" + SKIP,
  ignore,
  async fn() {
    await using ws = await tempWorkspace();
    try {
      const started = Date.now();
      await keys("sleep 30", ws.ctx, 0.3);
      assert.ok(Date.now() - started >= 300);
      await keys("Enter", ws.ctx, 0.2);
      const stopped = await keys("C-c", ws.ctx, 0.2);
      assert.match(stopped.newOutput ?? "", /\^C/);
      const after = await keys("echo back\n", ws.ctx);
      assert.match(after.newOutput ?? "", /\nback\n/);
    } finally {
      await ws.ctx.resources.get(TERMINAL_RESOURCE)?.[Symbol.asyncDispose]();
    }
  },
});

Deno.test({
  name: "terminalKeys() gives the screen instead of a diff when the history was cleared" + SKIP,
  ignore,
  async fn() {
    await using ws = await tempWorkspace();
    try {
      await keys("echo one\n", ws.ctx);
      const cleared = await keys("clear && tmux clear-history && echo two\n", ws.ctx);
      assert.equal(cleared.newOutput, null);
      assert.equal(cleared.output, cleared.screen);
      assert.match(cleared.screen, /two/);
    } finally {
      await ws.ctx.resources.get(TERMINAL_RESOURCE)?.[Symbol.asyncDispose]();
    }
  },
});

Deno.test({
  name: "terminalKeys() leaves no tmux server behind when its process exits without cleanup" + SKIP,
  ignore,
  async fn() {
    await using ws = await tempWorkspace();
    const module = new URL("./terminal_keys.ts", import.meta.url).href;
    const fsModule = new URL("../../sandbox/file_system.ts", import.meta.url).href;
    const scratchModule = new URL("../../sandbox/scratch_space.ts", import.meta.url).href;
    const resourcesModule = new URL("./resources.ts", import.meta.url).href;
    const script = `import { terminalKeys, TERMINAL_RESOURCE } from ${JSON.stringify(module)};
import { Resources } from ${JSON.stringify(resourcesModule)};
import { inProcessFs } from ${JSON.stringify(fsModule)};
import { SessionScratch } from ${JSON.stringify(scratchModule)};
const resources = new Resources();
const scratch = new SessionScratch(Deno.cwd() + "/run");
const ctx = {
  cwd: Deno.cwd(), signal: new AbortController().signal, env: Deno.env.toObject(), state: new Map(),
  resources, fs: inProcessFs, scratch,
};
await terminalKeys.run({ keystrokes: "echo hi\\n", duration_s: 0 }, ctx);
console.log(resources.get(TERMINAL_RESOURCE).socket);`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        "--config",
        fromFileUrl(new URL("../../deno.json", import.meta.url)),
        "--ext=ts",
        script,
      ],
      cwd: ws.dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const socket = new TextDecoder().decode(out.stdout).trim();
    let running = true;
    for (let i = 0; i < 50 && running; i++) {
      await new Promise((r) => setTimeout(r, 100));
      running = await serverRunning(socket);
    }
    assert.equal(running, false, "the watchdog kills the server after its process exits");
    await assert.rejects(() => Deno.stat(dirname(socket)), Deno.errors.NotFound);
  },
});
