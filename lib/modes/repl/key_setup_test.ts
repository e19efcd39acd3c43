import assert from "node:assert/strict";
import { join } from "node:path";
import { MissingKeyError, readStoredKeys } from "../../config/auth.ts";
import type { KeyCheck, KeyCheckTarget } from "../../providers/key_check.ts";
import type { ProviderSettings } from "../../providers/types.ts";
import { askForMissingKey, enterMissingKey } from "./key_setup.ts";

const SETTINGS: ProviderSettings & { envKey: string } = {
  id: "deepseek",
  name: "DeepSeek",
  baseUrl: "https://api.deepseek.com/v1",
  wireApi: "chat",
  envKey: "DEEPSEEK_API_KEY",
  headers: {},
  queryParams: {},
  requestMaxRetries: 0,
  streamMaxRetries: 0,
  streamIdleTimeoutMs: 0,
  streamMaxLineBytes: 1,
  streamMaxReplyBytes: 1,
  compat: {},
};

/** Secrets typed in turn; the check takes only "good" and cannot tell for "unsure". */
function scripted(secrets: Array<string | undefined>) {
  const printed: string[] = [];
  const checked: string[] = [];
  return {
    printed,
    checked,
    io: {
      print: (text: string) => printed.push(text),
      readSecret: () => Promise.resolve(secrets.shift()),
      check: (target: KeyCheckTarget, key: string): Promise<KeyCheck> => {
        assert.equal(target.baseUrl, SETTINGS.baseUrl);
        checked.push(key);
        if (key === "good") return Promise.resolve({ status: "accepted" });
        if (key === "unsure") return Promise.resolve({ status: "unknown", detail: "HTTP 404" });
        return Promise.resolve({ status: "refused", detail: "HTTP 401: Invalid key" });
      },
    },
  };
}

const missing = () => new MissingKeyError(SETTINGS, "is not set");

Deno.test("enterMissingKey() asks again after a refused key and stores the accepted one", async () => {
  const home = await Deno.makeTempDir();
  try {
    const { io, printed, checked } = scripted(["bad", " good\n"]);
    assert.equal(await enterMissingKey(missing(), home, io), true);
    assert.deepEqual(checked, ["bad", "good"]);
    assert.deepEqual(readStoredKeys(home), { deepseek: "good" });
    const said = printed.join("\n");
    assert.match(
      said,
      /api\.deepseek\.com refused the key \(HTTP 401: Invalid key\)\. Paste another/,
    );
    assert.match(
      said,
      /accepted the key; stored it in .+auth\.json.*DEEPSEEK_API_KEY wins over it/,
    );
    assert.match(said, /"interpreter logout deepseek" removes it/);
    assert.doesNotMatch(said, /good/, "the key itself is never printed");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("enterMissingKey() keeps a key it could not check, saying so", async () => {
  const home = await Deno.makeTempDir();
  try {
    const { io, printed } = scripted(["unsure"]);
    assert.equal(await enterMissingKey(missing(), home, io), true);
    assert.deepEqual(readStoredKeys(home), { deepseek: "unsure" });
    assert.match(printed.at(-1)!, /^Could not check the key \(HTTP 404\); stored it in /);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("enterMissingKey() skips on Enter or Ctrl-C, stores nothing and names config.toml", async () => {
  const home = await Deno.makeTempDir();
  try {
    for (const secrets of [[""], [undefined], ["bad", "  "]]) {
      const { io, printed } = scripted(secrets);
      assert.equal(await enterMissingKey(missing(), home, io), false);
      assert.equal(
        printed.at(-1),
        `Skipped. Set DEEPSEEK_API_KEY, or choose another provider in ${
          join(home, "config.toml")
        }.`,
      );
    }
    await assert.rejects(() => Deno.stat(join(home, "auth.json")), Deno.errors.NotFound);
    const other = scripted(["good"]);
    assert.equal(await askForMissingKey(new Error("other"), home, other.io), false);
    assert.deepEqual(other.checked, [], "another error asks nothing");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
