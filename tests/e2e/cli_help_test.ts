import assert from "node:assert/strict";
import { interpreter, LAUNCHER, tempDirs } from "./_harness_env.ts";

Deno.test("interpreter help COMMAND prints that command's help instead of sending a prompt", async () => {
  await using dirs = tempDirs();
  const home = await dirs.add(Deno.makeTempDir({ prefix: "oi-home-" }));
  const cwd = Deno.cwd();
  const exec = await interpreter(["help", "exec"], { cwd, home });
  assert.equal(exec.code, 0, exec.stderr);
  assert.match(exec.stdout, /^Usage: interpreter exec\|e \[options\]/);
  const top = await interpreter(["help"], { cwd, home });
  assert.equal(top.code, 0, top.stderr);
  assert.match(top.stdout, /^ {2}help \[command\.\.\.\] +show the help of a command$/m);
  const unknown = await interpreter(["help", "nope"], { cwd, home });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^error: There is no command "nope"$/m);
});

Deno.test({
  name: "a mistyped command typed at a terminal gets a did-you-mean and exit 2",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using dirs = tempDirs();
    const home = await dirs.add(Deno.makeTempDir({ prefix: "oi-home-" }));
    // util-linux `script` gives the launcher a pseudo-terminal for stdin.
    const out = await new Deno.Command("timeout", {
      args: ["30", "script", "-qec", `'${LAUNCHER}' exce`, "/dev/null"],
      env: { OPENINTERPRETER_HOME: home, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 2, text);
    assert.match(text, /error: "exce" is not a command: did you mean `exec`\?/);
  },
});
