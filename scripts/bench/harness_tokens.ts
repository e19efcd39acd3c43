// deno-lint-ignore-file no-console -- a command-line report; its output is the point
/**
 * Tokens of each harness's system prompt and tool definitions, beside the sizes the real CLIs
 * sent (tests/fixtures/captures). Tokens are counted with o200k_base (the GPT-4o/GPT-5
 * encoding, bundled in gpt-tokenizer, so it works offline); other vendors' tokenizers differ
 * by some percent, so read the counts as comparable sizes, not exact bills. Captures keep no
 * text, only character counts, so their side is in characters.
 *
 *   deno run -A scripts/bench/harness_tokens.ts
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { join } from "node:path";
import { listHarnessIds, loadHarness } from "../../lib/harness/load.ts";
import { renderSystemPrompt } from "../../lib/harness/prompt.ts";
import type { Harness, PromptVars } from "../../lib/harness/types.ts";
import { CAPTURE_TABLE } from "../../tests/_capture_compare.ts";
import { sentTools, wireTools } from "../../tests/_wire_tools.ts";
import { REPO } from "./_measure.ts";

const HARNESSES = join(REPO, "harnesses");
const CAPTURES = join(REPO, "tests", "fixtures", "captures");

/** Typical values, so templates render at a realistic size. */
const VARS: PromptVars = {
  cwd: "/home/user/projects/example-app",
  date: "2026-01-15",
  platform: "linux x86_64",
  shell: "/bin/bash",
  model: "example-model",
  gitStatus: "## main...origin/main\n M src/app.ts\n?? notes.md",
  agentsMd: "",
  sandbox: "Commands run in a sandbox with write access to the workspace only.",
};

interface Row {
  harness: string;
  promptChars: number;
  promptTokens: number;
  tools: number;
  deferred: number;
  toolsChars: number;
  toolsTokens: number;
  capture?: CaptureSizes;
}

interface CaptureSizes {
  file: string;
  systemChars: number;
  /** Extra system text sent elsewhere (claude's second, `role: "system"` message). */
  extraSystemChars: number;
  toolsJsonChars: number;
  tools: number;
  deferred: number;
}

function measure(h: Harness): Row {
  const prompt = renderSystemPrompt(h, VARS);
  const sent = sentTools(h);
  const tools = sent.length ? JSON.stringify(wireTools(h.wireApis[0], sent)) : "";
  return {
    harness: h.id,
    promptChars: prompt.length,
    promptTokens: countTokens(prompt),
    tools: sent.length,
    deferred: h.tools.filter((t) => t.deferred).length,
    toolsChars: tools.length,
    toolsTokens: countTokens(tools),
  };
}

async function captureSizes(harness: string): Promise<CaptureSizes | undefined> {
  const row = CAPTURE_TABLE.find((r) => r.harness === harness) ??
    (harness.startsWith("claude-code") ? CAPTURE_TABLE[0] : undefined);
  if (!row) return undefined;
  const cap = JSON.parse(await Deno.readTextFile(join(CAPTURES, row.capture)));
  const system = cap.summary.system_prompt;
  const extra = (system.also_in_messages ?? []) as Array<{ chars: number }>;
  return {
    file: row.capture,
    systemChars: system.chars,
    extraSystemChars: extra.reduce((n, m) => n + m.chars, 0),
    toolsJsonChars: cap.summary.tools_json_chars,
    tools: cap.summary.tools_count,
    deferred: cap.annotations?.deferred_tools_named_in_context?.length ?? 0,
  };
}

function table(rows: Row[]): string {
  const n = (v: number) => v.toLocaleString("en-US");
  const lines = [
    "| harness | prompt chars | prompt tokens | tools (+deferred) | tools JSON chars | tools tokens " +
    "| total tokens | capture | capture system chars | capture tools (+deferred) " +
    "| capture tools JSON chars |",
    "|---|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|",
  ];
  for (const r of rows) {
    const c = r.capture;
    const sys = c
      ? n(c.systemChars) + (c.extraSystemChars ? ` + ${n(c.extraSystemChars)}` : "")
      : "";
    lines.push(
      `| ${r.harness} | ${n(r.promptChars)} | ${n(r.promptTokens)} | ${r.tools} (+${r.deferred}) ` +
        `| ${n(r.toolsChars)} | ${n(r.toolsTokens)} | ${n(r.promptTokens + r.toolsTokens)} ` +
        `| ${c?.file ?? "-"} | ${sys || "-"} | ${c ? `${c.tools} (+${c.deferred})` : "-"} ` +
        `| ${c ? n(c.toolsJsonChars) : "-"} |`,
    );
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const id of await listHarnessIds({ builtinDir: HARNESSES })) {
    const row = measure(await loadHarness(id, { builtinDir: HARNESSES }));
    row.capture = await captureSizes(id);
    rows.push(row);
  }
  console.log(table(rows));
  console.log(
    "\nTokens: o200k_base. Tools JSON: the `tools` array of the first request on the " +
      "harness's first wire API. Capture sizes: characters as the CLI sent them " +
      "(claude's system text is split over `system` and a later system message).",
  );
}

if (import.meta.main) await main();
