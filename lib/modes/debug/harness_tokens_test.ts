import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { commandOf, parseArgs } from "../../cli/cli.ts";
import { loadHarness } from "../../harness/load.ts";
import { firstRequestTokens } from "../../session/first_request_tokens.ts";
import { formatHarnessTokens, o200kCounter } from "./harness_tokens.ts";

const BUILTIN = fileURLToPath(new URL("../../../harnesses", import.meta.url));

Deno.test("firstRequestTokens() counts qwen-code's first request full and lean, the lean one far smaller", async () => {
  const h = await loadHarness("qwen-code", { builtinDir: BUILTIN });
  const sizes = await firstRequestTokens(h, await o200kCounter());
  assert.equal(sizes.full.tools, 14, "a session without MCP servers");
  assert.equal(sizes.lean?.tools, 4);
  const total = (s: { promptTokens: number; toolTokens: number }) => s.promptTokens + s.toolTokens;
  assert.ok(total(sizes.full) > 2000, `full: ${total(sizes.full)}`);
  assert.ok(total(sizes.lean!) * 2 < total(sizes.full), `lean: ${total(sizes.lean!)}`);
  const report = formatHarnessTokens(h, sizes);
  assert.match(report, /^harness qwen-code: first-request tokens \(o200k_base\)/);
  assert.match(report, /^ {2}tools sent +14 +4$/m);
  assert.match(report, /^ {2}tools \(chat\) +[\d,]+ +[\d,]+$/m);
});

Deno.test("firstRequestTokens() counts no tools for a text protocol and the report marks a missing [lean]", async () => {
  const h = await loadHarness("swe-agent", { builtinDir: BUILTIN });
  const count = (text: string) => text.length;
  const sizes = await firstRequestTokens(h, count);
  assert.deepEqual([sizes.full.tools, sizes.full.toolTokens], [0, 0]);
  assert.ok(sizes.lean!.promptTokens < sizes.full.promptTokens);
  const withoutLean = formatHarnessTokens({ ...h, lean: undefined }, { full: sizes.full });
  assert.match(withoutLean, /^ {2}total +[\d,]+ +-$/m);
  assert.match(withoutLean, /swe-agent has no \[lean\] section: lean mode keeps its full surface/);
});

Deno.test("debug harness --tokens reaches the command", async () => {
  const cmd = await commandOf(parseArgs(["debug", "harness", "pi", "--tokens"], "test"));
  assert.ok(cmd.mode === "debug_harness");
  assert.equal(cmd.id, "pi");
  assert.equal(cmd.tokens, true);
  const plain = await commandOf(parseArgs(["debug", "harness", "pi"], "test"));
  assert.ok(plain.mode === "debug_harness" && plain.tokens === undefined);
});
