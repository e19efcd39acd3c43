import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { listHarnessIds, loadHarness } from "../lib/harness/load.ts";
import {
  firstRequestBody,
  missingTopics,
  modelTexts,
  parseTopics,
  type Topics,
} from "./_harness_texts.ts";

/**
 * Topic coverage (issue 31 item 4): each `harnesses/<id>/topics.toml` lists the topics of the
 * vendor CLI's first request (facts from a local capture, not the vendor's words). This builds
 * the harness's first request on its first wire from a real session against the scripted
 * provider, collects what the model reads there (tool descriptions, system and developer texts,
 * context parts; not the user's prompt), and checks that every topic's keywords appear
 * (case-insensitive) and that our characters are between half and the whole of the vendor's
 * (`vendor_chars`), unless the surface is lean (`lean = true`). It prints the ours ÷ vendor table.
 */

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));

async function topicFiles(): Promise<{ id: string; file: string }[]> {
  const out: { id: string; file: string }[] = [];
  for (const id of await listHarnessIds({ builtinDir: HARNESSES })) {
    const file = join(HARNESSES, id, "topics.toml");
    if (await Deno.stat(file).then(() => true, () => false)) out.push({ id, file });
  }
  return out;
}

const files = await topicFiles();
const rows: string[] = [];

for (const { id, file } of files) {
  Deno.test(`harness ${id} covers the topics in harnesses/${id}/topics.toml`, async () => {
    const topics: Topics = parseTopics(
      await Deno.readTextFile(file),
      `harnesses/${id}/topics.toml`,
    );
    const h = await loadHarness(id, { builtinDir: HARNESSES });
    const wire = h.wireApis[0];
    const texts = modelTexts(await firstRequestBody(id, wire, topics.model));
    const ours = texts.counted.reduce((n, t) => n + t.length, 0);
    const ratio = ours / topics.vendorChars;
    rows.push(
      `| ${id} (${wire}) | ${ours} | ${topics.vendorChars} | ${ratio.toFixed(2)}` +
        `${topics.lean ? " (lean)" : ""} |`,
    );
    const missing = missingTopics(topics.topics, texts.haystack);
    assert.deepEqual(
      missing,
      [],
      `harness ${id}: topics without their keywords in the first request ` +
        `(cover them in the harness's texts):\n  ${missing.join("\n  ")}`,
    );
    if (!topics.lean) {
      assert.ok(
        ratio >= 0.5 && ratio <= 1,
        `harness ${id}: ${ours} characters against the vendor's ${topics.vendorChars} ` +
          `(${ratio.toFixed(2)}); keep it between half and the whole, or set lean = true`,
      );
    }
  });
}

Deno.test({
  name: "topic coverage: ours ÷ vendor characters per harness",
  // Runs after the harness tests above (tests in one file run in order).
  fn() {
    if (rows.length === 0) return;
    const table = ["| harness (wire) | ours | vendor | ratio |", "|---|---|---|---|", ...rows];
    // deno-lint-ignore no-console -- the issue asks for this table in the test output
    console.log(`\n${table.join("\n")}\n`);
  },
});

Deno.test("topics.toml is read strictly", () => {
  const ok = `vendor = "x 1"\nvendor_chars = 10\n[[topic]]\nname = "a"\nwhere = "tools"\n` +
    `keywords = ["Bash"]\n`;
  assert.equal(parseTopics(ok, "t.toml").topics[0].keywords[0], "Bash");
  const bad: [string, RegExp][] = [
    [ok + `extra = 1\n`, /t\.toml: topic 1: unknown key "extra"/],
    [`typo = 1\n` + ok, /unknown key "typo"/],
    [ok.replace(`["Bash"]`, `[]`), /"keywords" must list at least one keyword/],
    [ok.replace(`["Bash"]`, `[""]`), /every keyword must be a non-empty string/],
    [ok.replace(`"tools"`, `"prompt"`), /"where" must be "tools", "system" or "context"/],
    [ok.replace("vendor_chars = 10", "vendor_chars = 0"), /"vendor_chars" must be a positive/],
    [`vendor = "x 1"\nvendor_chars = 10\n`, /no \[\[topic\]\] tables/],
    [ok + `lean = "yes"\n`, /not valid TOML|unknown key/],
    [
      `vendor = "x 1"\nvendor_chars = 10\nlean = "yes"\n[[topic]]\nname = "a"\nwhere = "tools"\n` +
      `keywords = ["B"]\n`,
      /"lean" must be true or false/,
    ],
    [`vendor = `, /not valid TOML/],
  ];
  for (const [text, re] of bad) assert.throws(() => parseTopics(text, "t.toml"), re);
});

Deno.test("the texts the model reads leave out the prompt and parameter descriptions", () => {
  const texts = modelTexts({
    system: [{ type: "text", text: "You are a coding agent." }],
    messages: [
      {
        role: "user",
        content: [{ type: "text", text: "<r>ctx</r>" }, { type: "text", text: "say OK" }],
      },
      { role: "system", content: "Model: m" },
    ],
    tools: [{
      name: "Bash",
      description: "Runs a command.",
      input_schema: { properties: { c: { description: "zzz" } } },
    }],
  });
  assert.deepEqual(texts.counted, [
    "You are a coding agent.",
    "<r>ctx</r>",
    "Model: m",
    "Runs a command.",
  ]);
  assert.ok(texts.haystack.includes("zzz"));
  assert.deepEqual(
    missingTopics([{ name: "n", where: "tools", keywords: ["BASH", "nope"] }], texts.haystack),
    [
      `"n" (tools): "nope"`,
    ],
  );
});
