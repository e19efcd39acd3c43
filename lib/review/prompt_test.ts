import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness, loadHarnessDir } from "../harness/load.ts";
import { BASE_FILES, BASE_SPEC, writeHarness } from "../harness/_test_harness.ts";
import type { PromptVars } from "../harness/types.ts";
import { reviewerPrompt } from "./prompt.ts";

const BUILTIN = fileURLToPath(new URL("../../harnesses/", import.meta.url));
const VARS: PromptVars = {
  cwd: "/w",
  date: "2026-01-02",
  platform: "linux",
  shell: "bash",
  model: "m",
  gitStatus: "",
  agentsMd: "AGENTS-TEXT",
  sandbox: "",
  sandboxFacts: { mode: "read-only", policy: "never", description: "ro", enforced: true },
};

Deno.test("reviewerPrompt() fills the shared reviewer text, or the harness's own", async () => {
  const shared = reviewerPrompt(await loadHarness("minimal", { builtinDir: BUILTIN }), VARS);
  assert.match(shared, /^You are reviewing a code change/);
  assert.match(shared, /- Workspace: \/w\n[^]*- Sandbox: Commands run under this sandbox: ro\./);
  assert.match(shared, /AGENTS-TEXT\n$/);

  const root = await Deno.makeTempDir({ prefix: "oi-review-" });
  try {
    const spec = `${BASE_SPEC}\n[prompts]\nreviewer = "r.md"\n`;
    const files = { ...BASE_FILES, "r.md": "Review the change in {{cwd}} ({{sandbox}})." };
    const own = await loadHarnessDir(await writeHarness(root, "t", spec, files));
    assert.equal(
      reviewerPrompt(own, VARS),
      "Review the change in /w (Commands run under this sandbox: ro. No approval can be asked: " +
        "work within the sandbox, and report what it prevents.).",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
