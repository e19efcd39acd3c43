// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { basename, join, relative, resolve } from "node:path";
import { terminalText } from "../../approval/visible.ts";
import { UsageError } from "../../errors.ts";
import { listHarnessIds, loadHarness, loadHarnessDir, SPEC_FILE } from "../../harness/load.ts";
import { placeholdersFor, sampleRender } from "../../harness/placeholders.ts";
import { SHARED_TEXTS_DIR } from "../../harness/session_texts.ts";
import type { Harness, HarnessTool } from "../../harness/types.ts";
import { BUILTIN_HARNESSES } from "../../session/agent_session.ts";
import { loadSessionConfig } from "../../session/setup.ts";
import type { SessionConfig } from "../../session/types.ts";
import { formatHarnessTokens, harnessTokens, o200kCounter } from "./harness_tokens.ts";

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
  const harness = await isHarnessPath(id)
    ? await loadHarnessFolder(id)
    : await loadInstalled(id, options);
  const report = opts.tokens
    ? formatHarnessTokens(harness, await harnessTokens(harness, await o200kCounter()))
    : formatHarnessDebug(harness);
  console.log(terminalText(report));
  return 0;
}

async function loadInstalled(id: string, options: SessionConfig): Promise<Harness> {
  const config = await loadSessionConfig(options, { env: Deno.env.toObject() });
  const dirs = { builtinDir: BUILTIN_HARNESSES, userDir: join(config.home, "harnesses") };
  const ids = await listHarnessIds(dirs);
  if (!ids.includes(id)) {
    throw new UsageError(`Unknown harness "${id}"`, {
      hint: `Known harnesses: ${ids.join(", ")}; or give the path of a harness folder`,
    });
  }
  return await loadHarness(id, dirs);
}

async function isHarnessPath(arg: string): Promise<boolean> {
  return /[/\\]/.test(arg) || arg === "." || arg === ".." || await isFile(join(arg, SPEC_FILE));
}

/** The harness in folder `path`, checked exactly as an installed one. */
async function loadHarnessFolder(path: string): Promise<Harness> {
  const dir = resolve(path);
  const stat = await Deno.stat(dir).catch(() => undefined);
  if (!stat?.isDirectory) {
    throw new UsageError(`Cannot load the harness folder "${path}": it is not a folder`, {
      hint: "Give the path of a folder that holds a harness.toml, or a harness id",
    });
  }
  if (!await isFile(join(dir, SPEC_FILE))) {
    throw new UsageError(`Cannot load the harness folder "${path}": it has no ${SPEC_FILE}`, {
      hint: `Write ${SPEC_FILE} there (harnesses/README.md walks through the smallest one)`,
    });
  }
  return await loadHarnessDir(dir);
}

async function isFile(path: string): Promise<boolean> {
  return (await Deno.stat(path).catch(() => undefined))?.isFile ?? false;
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
    ...Object.entries(h.texts.files).map(([key, file]) => `  ${key} = ${textSource(h, file)}`),
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
  lines.push(`    placeholders: ${(placeholdersFor(tool.capability) ?? []).length} available`);
  lines.push("    sample result:");
  const render = sampleRender(tool) ?? "(no sample for this capability)";
  for (const line of render.split("\n")) lines.push(`      | ${line}`);
  return lines;
}

/** Where a text came from: the harness's own file, or the shared default. */
function textSource(h: Harness, file: string): string {
  return relative(SHARED_TEXTS_DIR, file) === basename(file)
    ? `(shared) _shared/${basename(file)}`
    : relative(h.dir, file);
}

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0];
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}
