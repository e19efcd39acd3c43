/**
 * Runs the hostile write attempts of `_escape_attempts.ts` through one harness twice: under
 * danger-full-access with no approvals (the control: every target is really written), then
 * with the default sandbox and approval policy, where nothing may change.
 */
import assert from "node:assert/strict";
import { parseScript, startFakeProvider } from "../fake_provider/server.ts";
import { attemptCalls, escapeLayout, shellAttempt } from "./_escape_attempts.ts";
import { fakeHome, interpreter } from "./_harness_env.ts";
import { need } from "../../sandbox/_test_requires.ts";

const BWRAP = await need("bwrap");
const SKIP = BWRAP.note;

/** How a text-protocol harness sends one shell command, and how it finishes. */
const TEXT_PROTOCOLS: Record<string, { command(line: string): string; finish: string[] }> = {
  "swe-agent": {
    command: (line) => `DISCUSSION\nTrying.\n\n\`\`\`\n${line}\n\`\`\``,
    finish: ["DISCUSSION\nDone.\n\n```\nsubmit\n```", "DISCUSSION\ndone\n\n```\nsubmit\n```"],
  },
  "mini-swe-agent": {
    command: (line) => `Trying.\n\n\`\`\`bash\n${line}\n\`\`\``,
    finish: ["Done.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```"],
  },
};

type Wire = "chat" | "responses" | "messages";

async function runAttempts(harness: string, wire: Wire, sandboxed: boolean) {
  await using layout = await escapeLayout();
  const before = await layout.snapshot();
  const text = TEXT_PROTOCOLS[harness];
  const replies = text
    ? [
      ...[shellAttempt(layout)].map((line) => ({ reply: { text: text.command(line) } })),
      ...text.finish.map((t) => ({ reply: { text: t } })),
    ]
    : [
      ...(await attemptCalls(harness, layout)).map((call) => ({ reply: { tool_calls: [call] } })),
      { reply: { text: "done" } },
    ];
  await using fake = await startFakeProvider(
    parseScript(replies.map((r) => JSON.stringify(r)).join("\n")),
  );
  const home = await fakeHome(fake.baseUrl, wire);
  try {
    const policy = sandboxed ? [] : ["-s", "danger-full-access", "-a", "never"];
    const result = await interpreter(["exec", "--harness", harness, ...policy, "go"], {
      cwd: layout.ws,
      home,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(fake.failures, []);
    assert.equal(fake.remaining(), 0, "every attempt was made");
    return { before, after: await layout.snapshot(), stderr: result.stderr };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** Registers the control and the sandboxed run for each harness. */
export function escapeSuite(cases: Array<{ harness: string; wire: Wire }>): void {
  for (const { harness, wire } of cases) {
    Deno.test({
      name: `${harness}: every write attempt escapes in full access (control)${SKIP}`,
      ignore: BWRAP.ignore,
      async fn() {
        const { before, after } = await runAttempts(harness, wire, false);
        for (const key of Object.keys(before)) {
          assert.notEqual(after[key], before[key], `control: ${key} was written`);
        }
      },
    });
    Deno.test({
      name: `${harness}: no write attempt leaves the workspace-write sandbox${SKIP}`,
      ignore: BWRAP.ignore,
      async fn() {
        const { before, after } = await runAttempts(harness, wire, true);
        assert.deepEqual(after, before);
      },
    });
  }
}
