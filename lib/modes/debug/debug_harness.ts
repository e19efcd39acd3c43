// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { join } from "node:path";
import { terminalText } from "../../approval/visible.ts";
import { UsageError } from "../../errors.ts";
import { listHarnessIds, loadHarness } from "../../harness/load.ts";
import { placeholdersFor, sampleRender } from "../../harness/placeholders.ts";
import type { Harness, HarnessTool } from "../../harness/types.ts";
import { BUILTIN_HARNESSES } from "../../session/agent_session.ts";
import type { SharedOptions } from "../../cli/cli.ts";
import { commandConfig } from "../../session/setup.ts";

/** `interpreter debug harness ID`: the harness's tools, request settings and sample results. */
export async function runDebugHarness(id: string, options: SharedOptions): Promise<number> {
  const config = await commandConfig(options);
  const dirs = { builtinDir: BUILTIN_HARNESSES, userDir: join(config.home, "harnesses") };
  const ids = await listHarnessIds(dirs);
  if (!ids.includes(id)) {
    throw new UsageError(`Unknown harness "${id}"`, { hint: `Known harnesses: ${ids.join(", ")}` });
  }
  console.log(terminalText(formatHarnessDebug(await loadHarness(id, dirs))));
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
    `  ${prefix}${tool.declaration.name} → ${tool.capability}${tool.deferred ? " (deferred)" : ""}`,
    `    args: ${args.join(", ") || "(none)"}`,
  ];
  if (fixed.length) lines.push(`    fixed: ${fixed.join(", ")}`);
  lines.push(`    placeholders: ${(placeholdersFor(tool.capability) ?? []).length} available`);
  lines.push("    sample result:");
  const render = sampleRender(tool) ?? "(no sample for this capability)";
  for (const line of render.split("\n")) lines.push(`      | ${line}`);
  return lines;
}

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0];
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}
