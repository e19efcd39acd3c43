import assert from "node:assert/strict";
import { ConfigError } from "../errors.ts";
import { tempTree } from "./_testing.ts";
import { loadConfig } from "./load.ts";

Deno.test("loadConfig() reads web_fetch.allowed_hosts from a file and from -c", async () => {
  await using t = await tempTree({
    "home/config.toml": '[web_fetch]\nallowed_hosts = ["localhost:8080", "::1", "[fe80::1]:80"]\n',
  });
  const base = { cwd: t.repo, env: t.env, flags: {} };
  const fromFile = await loadConfig({ ...base, overrides: [] });
  assert.deepEqual(fromFile.values.web_fetch?.allowed_hosts, [
    "localhost:8080",
    "::1",
    "[fe80::1]:80",
  ]);
  const fromFlag = await loadConfig({
    ...base,
    overrides: ['web_fetch.allowed_hosts=["wiki.corp"]'],
  });
  assert.deepEqual(fromFlag.values.web_fetch?.allowed_hosts, ["wiki.corp"]);
});

Deno.test("loadConfig() refuses an allowed_hosts entry that is not a host", async () => {
  await using t = await tempTree({
    "home/config.toml": '[web_fetch]\nallowed_hosts = ["http://localhost:8080/"]\n',
  });
  const err = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] })
    .catch((e) => e);
  assert.ok(err instanceof ConfigError, String(err));
  const [where, why] = err.message.split(" at line 2: ");
  assert.match(
    where,
    /^Invalid value \["http:\/\/localhost:8080\/"\] for "web_fetch\.allowed_hosts" in /,
  );
  assert.equal(
    why,
    '"http://localhost:8080/" is not a host: use a host name or IP address, optionally with ' +
      '":port", as in "localhost:8080"',
  );
});
