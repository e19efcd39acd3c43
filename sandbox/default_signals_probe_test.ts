/**
 * `probeSignalReset()` puts `env --default-signal` before sandboxes only when a child would
 * inherit an ignored signal: an agent started with every default disposition spares each command
 * that extra program, one started with SIGQUIT ignored keeps it (default_signals_test.ts shows
 * that its commands then start with defaults).
 */
import assert from "node:assert/strict";

const PROBE = `
import { probeSignalReset } from ${
  JSON.stringify(new URL("./_default_signals.ts", import.meta.url).href)
};
console.log(JSON.stringify(await probeSignalReset()));
`;

/** The probe's answer in a Deno started by `bash -c script`, which ends with `exec "$@"`. */
async function probeUnder(script: string): Promise<string[]> {
  const out = await new Deno.Command("/bin/bash", {
    args: ["-c", script, "bash", Deno.execPath(), "eval", "--quiet", PROBE],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

const envWorks = await new Deno.Command("/usr/bin/env", {
  args: ["--default-signal", "true"],
  stdout: "null",
  stderr: "null",
}).output().then((out) => out.success, () => false);

Deno.test({
  name: `no reset program when nothing is ignored, env when SIGQUIT is${
    envWorks ? "" : " (skipped: no env --default-signal)"
  }`,
  ignore: !envWorks,
  async fn() {
    // `env --default-signal` clears whatever the test runner was started with.
    assert.deepEqual(await probeUnder('exec /usr/bin/env --default-signal "$@"'), []);
    assert.deepEqual(await probeUnder('trap "" QUIT; exec "$@"'), [
      "/usr/bin/env",
      "--default-signal",
    ]);
  },
});
