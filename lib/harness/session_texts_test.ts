import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HarnessError } from "../errors.ts";
import { listHarnessIds, loadHarness, loadHarnessDir } from "./load.ts";
import { sandboxParagraph } from "./sandbox_text.ts";
import { SHARED_TEXT_FILES, SHARED_TEXTS_DIR, summaryMessage } from "./session_texts.ts";
import { BASE_FILES, BASE_SPEC, writeHarness } from "./_test_harness.ts";

const BUILTIN = fileURLToPath(new URL("../../harnesses/", import.meta.url));

/** A `t` harness in a temp folder with `[prompts]` = `prompts` and extra `files`. */
async function withHarness(
  prompts: string,
  files: Record<string, string>,
  run: (dir: string) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "oi-texts-" });
  try {
    const spec = `${BASE_SPEC}\n[prompts]\n${prompts}\n`;
    await run(await writeHarness(root, "t", spec, { ...BASE_FILES, ...files }));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function loadError(prompts: string, files: Record<string, string>): Promise<HarnessError> {
  let caught: unknown;
  await withHarness(prompts, files, async (dir) => {
    caught = await loadHarnessDir(dir).catch((e) => e);
  });
  assert.ok(caught instanceof HarnessError, String(caught));
  return caught;
}

Deno.test("a harness without [prompts] takes the shared texts, worded as before", async () => {
  const h = await loadHarness("minimal", { builtinDir: BUILTIN });
  for (const [key, file] of Object.entries(SHARED_TEXT_FILES)) {
    assert.equal(
      h.texts.files[key as keyof typeof SHARED_TEXT_FILES],
      join(SHARED_TEXTS_DIR, file),
    );
  }
  assert.match(h.texts.compaction, /^The conversation is about to be shortened[^\n]*only\.$/);
  assert.equal(summaryMessage(h.texts, "S"), "Summary of the work so far:\n\nS");
  assert.match(h.texts.reviewer, /^You are reviewing a code change[^]*\{\{agents_md\}\}\n$/);
  const facts = { mode: "danger-full-access", policy: "never", enforced: false };
  assert.equal(
    sandboxParagraph(h.texts.sandbox, { ...facts, description: "off" }),
    "Commands run under this sandbox: off. No approval can be asked: work within the sandbox, " +
      "and report what it prevents.",
  );
  const unconfined = { mode: "workspace-write", policy: "on-failure", enforced: false };
  assert.equal(
    sandboxParagraph(h.texts.sandbox, { ...unconfined, description: "none" }),
    "Commands cannot be sandboxed here (none); each one needs the user's approval. If a command " +
      "fails because of the sandbox, the user is asked whether to rerun it unsandboxed.",
  );
});

Deno.test("[prompts] files replace the shared texts, each key on its own", async () => {
  const files = {
    "prompts/compact.md": "Write hand-off notes.\n",
    "prompts/summary.md": "Notes from before:\n{summary}\n(end)\n",
    "prompts/review.md": "Review in {{cwd}}.",
    "prompts/sandbox.toml": [
      'template = "<permissions>{where} {approval}</permissions>"',
      'confined = "Sandbox: {mode}."',
      'unconfined = "No sandbox: {description}."',
      "[approval]",
      'untrusted = "Ask."',
      'on-request = "Escalate."',
      'on-failure = "Retry."',
      'never = "Never ({policy})."',
    ].join("\n"),
  };
  const prompts = 'compaction = "prompts/compact.md"\ncompaction_summary = "prompts/summary.md"\n' +
    'reviewer = "prompts/review.md"\nsandbox = "prompts/sandbox.toml"';
  await withHarness(prompts, files, async (dir) => {
    const h = await loadHarnessDir(dir);
    assert.equal(h.texts.compaction, "Write hand-off notes.");
    assert.equal(summaryMessage(h.texts, "S"), "Notes from before:\nS\n(end)");
    assert.equal(h.texts.reviewer, "Review in {{cwd}}.");
    assert.equal(h.texts.files.reviewer, join(dir, "prompts/review.md"));
    const facts = { mode: "read-only", policy: "never", description: "bwrap", enforced: true };
    assert.equal(
      sandboxParagraph(h.texts.sandbox, facts),
      "<permissions>Sandbox: read-only. Never (never).</permissions>",
    );
  });
  // One key alone: the others stay shared.
  await withHarness('compaction = "prompts/compact.md"', files, async (dir) => {
    const h = await loadHarnessDir(dir);
    assert.equal(h.texts.compaction, "Write hand-off notes.");
    assert.equal(h.texts.files.reviewer, join(SHARED_TEXTS_DIR, "reviewer.md"));
  });
});

Deno.test("bad [prompts] texts are refused with the key, the cause and the fix", async () => {
  let e = await loadError('compaction_summary = "s.md"', { "s.md": "Before: {text}" });
  assert.match(e.message, /key "prompts\.compaction_summary".*unknown placeholder "\{text\}"/);
  e = await loadError('compaction_summary = "s.md"', { "s.md": "Summary follows." });
  assert.match(e.message, /has no \{summary\} placeholder/);
  assert.match(e.hint!, /Add \{summary\}/);
  e = await loadError('compaction = "c.md"', { "c.md": "Summarize work in {{cwd}}." });
  assert.match(e.message, /compaction prompt cannot use "\{\{cwd\}\}"/);
  e = await loadError('compaction = "c.md"', { "c.md": "\n\n" });
  assert.match(e.message, /compaction prompt is empty/);
  e = await loadError('reviewer = "r.md"', { "r.md": "Review {{diff}}." });
  assert.match(e.message, /Invalid reviewer prompt ".*r\.md" at line 1: unknown variable/);
  e = await loadError('reviewer = "missing.md"', {});
  assert.match(e.message, /key "prompts\.reviewer": cannot read ".*missing\.md"/);
  const sandbox = 'template = "{where}"\nconfined = "a"\nunconfined = "b"\n[approval]\n' +
    'untrusted = ""\non-request = ""\non-failure = ""\n';
  e = await loadError('sandbox = "s.toml"', { "s.toml": sandbox });
  assert.match(e.message, /key "prompts\.sandbox": invalid ".*s\.toml": key "approval\.never"/);
  e = await loadError('sandbox = "s.toml"', {
    "s.toml": sandbox.replace('confined = "a"', 'confined = "{where}"') + 'never = ""\n',
  });
  assert.match(e.message, /s\.toml" key "confined": unknown placeholder "\{where\}"/);
  e = await loadError('sandbox = "s.toml"', { "s.toml": "template = [" });
  assert.match(e.message, /cannot parse ".*s\.toml" at line 1/);
  e = await loadError('bogus = "x"', {});
  assert.match(e.message, /unknown key "bogus" in "prompts"/);
});

Deno.test("the shared folder is not a harness, even with a harness.toml in it", async () => {
  const root = await Deno.makeTempDir({ prefix: "oi-texts-" });
  try {
    await writeHarness(root, "t", BASE_SPEC);
    await writeHarness(root, "_shared", BASE_SPEC.replace('id = "t"', 'id = "_shared"'));
    assert.deepEqual(await listHarnessIds({ builtinDir: root }), ["t"]);
    assert.ok(!(await listHarnessIds({ builtinDir: BUILTIN })).includes("_shared"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
