/**
 * Commands start with default signal dispositions in a prepared sandbox and in one made for the
 * command, even when `interpreter` itself was started with SIGQUIT, SIGINT and SIGPIPE ignored
 * (a background job of a script): the parent here runs the sandbox under `trap "" QUIT INT PIPE`.
 */
import assert from "node:assert/strict";
import { need } from "./_test_requires.ts";

const skip = (await need("bwrap")).note;

const SIGINT = 2;
const SIGQUIT = 3;
const SIGPIPE = 13;
/**
 * Signals 1 to 31. Signals 32 and 33 belong to the C library, which refuses to change them (so
 * `env --default-signal` cannot either) and installs its own handlers when it needs them.
 */
const STANDARD = (1n << 31n) - 1n;

/** The child program: a sandbox, one command in the prepared sandbox and one in a made one. */
const CHILD = `
import { sandboxWorkspace } from ${
  JSON.stringify(new URL("./_test_workspace.ts", import.meta.url).href)
};
await using s = await sandboxWorkspace("oi_signals_");
const script = "grep SigIgn /proc/self/status; trap '' QUIT; grep SigIgn /proc/self/status";
const req = { argv: ["/bin/bash", "-c", script], cwd: s.ws, env: { PATH: "/usr/bin:/bin" } };
const read = async (child) => (await new Response(child.stdout).text()) + (await child.status, "");
const prepared = await s.sandbox.spawn(req);
if (!prepared) throw new Error("no prepared sandbox took the command");
const spec = await s.sandbox.wrap(req);
const made = new Deno.Command(spec.cmd, {
  args: spec.args, cwd: s.ws, clearEnv: true, env: spec.env,
  stdin: "null", stdout: "piped", stderr: "inherit", detached: true,
}).spawn();
console.log(JSON.stringify({ prepared: await read(prepared), made: await read(made) }));
`;

/** The ignored-signal masks a command printed, before and after it ignores SIGQUIT itself. */
function masks(text: string): bigint[] {
  return [...text.matchAll(/^SigIgn:\s*([0-9a-f]+)$/gm)].map((m) => BigInt(`0x${m[1]}`));
}

function ignores(mask: bigint, signal: number): boolean {
  return (mask & (1n << BigInt(signal - 1))) !== 0n;
}

Deno.test({
  name: `a parent that ignores SIGQUIT does not pass it on to sandboxed commands${skip}`,
  ignore: skip !== "",
  async fn() {
    const trapped = `trap "" QUIT INT PIPE; grep SigIgn /proc/self/status; exec "$@"`;
    const out = await new Deno.Command("/bin/bash", {
      args: ["-c", trapped, "bash", Deno.execPath(), "eval", "--quiet", CHILD],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const [parent] = masks(text);
    for (const signal of [SIGQUIT, SIGINT, SIGPIPE]) {
      assert.ok(ignores(parent, signal), `the parent ignores signal ${signal}`);
    }
    const ran = JSON.parse(text.slice(text.indexOf("{")));
    for (const kind of ["prepared", "made"]) {
      const [before, after] = masks(ran[kind]);
      assert.equal(before & STANDARD, 0n, `${kind}: every signal has its default disposition`);
      // Control: a command's own `trap ''` still shows, so the mask read is the real one.
      assert.ok(ignores(after, SIGQUIT), `${kind}: a command may ignore SIGQUIT itself`);
    }
  },
});
