import assert from "node:assert/strict";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter } from "./_harness_env.ts";
import { pipedRepl } from "./_setups_repo.ts";

const ROUTE = '[harness_routes]\n"qwen3-coder*" = "minimal"\n';
const WHY = /^harness chosen by: route "qwen3-coder\*" in \[harness_routes\] \(config\.toml\)$/m;

Deno.test("a [harness_routes] entry picks the harness of exec for its model, and the banner says why", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider([{ reply: { text: "done" } }, {
    reply: { text: "done" },
  }]);
  const plain = await fakeHome(fake.baseUrl, "chat");
  const routed = await fakeHome(fake.baseUrl, "chat", ROUTE);
  try {
    const args = ["exec", "-m", "qwen3-coder-next", "say done"];
    const before = await interpreter(args, { cwd: repo, home: plain });
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stderr, /^harness: qwen-code$/m, "[match] picks qwen-code without a route");
    assert.match(before.stderr, /^harness chosen by: \[match\] of qwen-code$/m);
    const after = await interpreter(args, { cwd: repo, home: routed });
    assert.equal(after.code, 0, after.stderr);
    assert.match(after.stderr, /^harness: minimal$/m);
    assert.match(after.stderr, WHY);
  } finally {
    await Deno.remove(plain, { recursive: true });
    await Deno.remove(routed, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("/harness names the route that chose the harness in use", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider([]);
  const home = await fakeHome(fake.baseUrl, "chat", ROUTE);
  try {
    const out = await pipedRepl(["-m", "qwen3-coder-next"], {
      cwd: repo,
      home,
      stdin: "/harness\n",
    });
    assert.equal(out.code, 0, out.stderr);
    const text = out.stdout + out.stderr;
    assert.match(text, /^\* minimal /m);
    assert.match(
      text,
      /^in use because: route "qwen3-coder\*" in \[harness_routes\] \(config\.toml\)$/m,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});
