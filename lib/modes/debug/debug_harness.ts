// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { terminalText } from "../../approval/visible.ts";
import type { Harness, HarnessTool } from "../../harness/types.ts";
import { harnessToInspect, textOrigin, toolResultSample } from "../../session/harness_inspect.ts";
import type { SessionConfig } from "../../session/types.ts";
import { firstRequestTokens } from "../../session/first_request_tokens.ts";
import { formatHarnessTokens, o200kCounter } from "./harness_tokens.ts";

/**
 * `interpreter debug harness ID|PATH`: the harness's tools, request settings and sample results;
 * with `tokens`, the first request's tokens, full and lean, instead. A path (with a `/`, or a
 * folder here holding a harness.toml) is loaded from that folder, so a harness can be checked
 * before it is installed.
 */
export async function runDebugHarness(
  id: string,
  options: SessionConfig,
  opts: { tokens?: boolean } = {},
): Promise<number> {
  const harness = await harnessToInspect(id, options);
  const report = opts.tokens
    ? formatHarnessTokens(harness, await firstRequestTokens(harness, await o200kCounter()))
    : formatHarnessDebug(harness);
  console.log(terminalText(report));
  return 0;
}

/** Each wire's request settings and model rules, one `key = value` line each. */
function requestLines(h: Harness): string[] {
  const out: string[] = [];
  for (const wire of h.wireApis) {
    const spec = h.request[wire];
    if (!spec) {
      out.push(`  [${wire}] (the wire's defaults)`);
      continue;
    }
    out.push(`  [${wire}]`, ...settingLines(spec.base, "    "));
    for (const rule of spec.rules) {
      out.push(`    for models ${rule.patterns.join(", ")}:`);
      out.push(...settingLines(rule.set, "      "));
    }
  }
  return out;
}

function settingLines(spec: object, indent: string): string[] {
  return Object.entries(spec).map(([key, value]) =>
    `${indent}${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)} = ${JSON.stringify(value)}`
  );
}

/** The report `debug harness` prints. */
export function formatHarnessDebug(h: Harness): string {
  const out = [
    `harness ${h.id} (${h.label})`,
    `folder: ${h.dir}`,
    `wire APIs: ${h.wireApis.join(", ")}`,
    "",
    "request settings:",
    `  reasoning_replay = ${h.reasoningReplay}`,
    ...(h.reasoningPlaceholder !== undefined
      ? [`  reasoning_placeholder = ${JSON.stringify(h.reasoningPlaceholder)}`]
      : []),
    ...requestLines(h),
    "",
    "context layout (in order):",
    ...h.context.map((c, i) =>
      `  ${c.slot}${c.cache ? " (cached)" : ""}${c.samePart ? " (same message)" : ""}` +
      `${c.when ? ` when ${c.when.join(" or ")} is set` : ""}: ` +
      `${i === 0 ? "system prompt: " : ""}${firstLine(c.text)}`
    ),
    ...h.reminders.map((r) => `  reminder (${r.when}): ${firstLine(r.text)}`),
    ...(h.projectInstructions
      ? [
        `  project instructions: ${h.projectInstructions.slot}, each file as ` +
        JSON.stringify(h.projectInstructions.fileTemplate),
      ]
      : []),
    "",
    "prompts (compaction, review, {{sandbox}}):",
    ...Object.entries(h.texts.files).map(([key, file]) => `  ${key} = ${textOrigin(h, file)}`),
    "",
    "tools:",
  ];
  for (const tool of h.tools) {
    out.push(...toolLines(tool, ""));
    if (tool.route) {
      out.push(...toolLines(tool.route.tool, `  route when ${tool.route.when}: `));
    }
  }
  return out.join("\n");
}

function toolLines(tool: HarnessTool, prefix: string): string[] {
  const args = Object.entries(tool.args).map(([w, f]) => `${w} → ${f || "(unused)"}`);
  const fixed = Object.entries(tool.fixedArgs).map(([f, v]) => `${f} = ${JSON.stringify(v)}`);
  const lines = [
    `  ${prefix}${tool.declaration.name} → ${tool.capability}${tool.deferred ? " (deferred)" : ""}${
      tool.when === "mcp_servers" ? " (only with MCP servers)" : ""
    }`,
    `    args: ${args.join(", ") || "(none)"}`,
  ];
  if (fixed.length) lines.push(`    fixed: ${fixed.join(", ")}`);
  const { placeholders, sample } = toolResultSample(tool);
  lines.push(`    placeholders: ${placeholders} available`);
  lines.push("    sample result:");
  const render = sample ?? "(no sample for this capability)";
  for (const line of render.split("\n")) lines.push(`      | ${line}`);
  return lines;
}

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0];
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}
