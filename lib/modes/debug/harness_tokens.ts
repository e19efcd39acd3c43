/**
 * `interpreter debug harness ID --tokens`: the first request's tokens of a harness's full and lean
 * surfaces side by side (counted by `lib/session/first_request_tokens.ts`). Tokens are counted
 * with o200k_base (the project's bundled tokenizer, as compaction's estimates); other vendors'
 * tokenizers differ by some percent, so the counts compare surfaces rather than bill them.
 */
import type { Harness } from "../../harness/types.ts";
import type { SurfaceTokens, TokenCounter } from "../../session/first_request_tokens.ts";

/** The o200k_base counter, loaded on first use (its tables are large). */
export async function o200kCounter(): Promise<TokenCounter> {
  const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
  return (text) => countTokens(text);
}

/** The `--tokens` report: full and lean columns, one row per size. */
export function formatHarnessTokens(
  h: Harness,
  sizes: { full: SurfaceTokens; lean?: SurfaceTokens },
): string {
  const n = (v: number | undefined) => (v === undefined ? "-" : v.toLocaleString("en-US"));
  const row = (label: string, pick: (s: SurfaceTokens) => number) =>
    `  ${label.padEnd(20)}${n(pick(sizes.full)).padStart(8)}${
      n(sizes.lean && pick(sizes.lean)).padStart(8)
    }`;
  return [
    `harness ${h.id}: first-request tokens (o200k_base), before the user's prompt`,
    `  ${"".padEnd(20)}${"full".padStart(8)}${"lean".padStart(8)}`,
    row("prompt", (s) => s.promptTokens),
    row(`tools (${h.wireApis[0]})`, (s) => s.toolTokens),
    row("total", (s) => s.promptTokens + s.toolTokens),
    row("tools sent", (s) => s.tools),
    "",
    "prompt: the system prompt and the context around the first prompt, with sample values;",
    "tools: the declarations as the harness's first wire API sends them.",
    ...(sizes.lean ? [] : [`${h.id} has no [lean] section: lean mode keeps its full surface.`]),
  ].join("\n");
}
