import assert from "node:assert/strict";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, tempDirs } from "./_harness_env.ts";

Deno.test({
  name: "exec without bubblewrap and without anyone to approve stops before the model with exit 2",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using dirs = tempDirs();
    // No answers scripted: the model must not be asked anything.
    await using fake = await startFakeProvider([]);
    const repo = await dirs.add(fixtureRepo("habits"));
    const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
    const env = { OPENINTERPRETER_BWRAP: "/nonexistent/bwrap" };
    const out = await interpreter(["exec", "-s", "workspace-write", "run the tests"], {
      cwd: repo,
      home,
      env,
    });
    assert.equal(out.code, 2, out.stderr);
    assert.match(
      out.stderr,
      /^error: Cannot run commands: the command sandbox is unavailable because bubblewrap is not installed, and no one is here to approve them/m,
    );
    assert.match(out.stderr, /^hint: Install it /m);
    assert.equal(fake.requests.length, 0, "no model request was made");
    const full = await interpreter(["exec", "-s", "danger-full-access", "hi"], {
      cwd: repo,
      home,
      env,
    });
    assert.notEqual(full.code, 2, "danger-full-access needs no sandbox");
    assert.equal(fake.requests.length, 1);
  },
});
