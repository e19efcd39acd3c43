/**
 * The lean surface of a harness (`[lean]` in harness.toml): its core tools and a short prompt,
 * for small models that the full surface would swamp. The tools keep their vendor names,
 * schemas and results; only fewer are sent, all from the first request (none deferred). A
 * text-protocol harness keeps the tools its protocol needs and gets a shorter prompt. Which
 * sessions use it is `chooseLean()` in select.ts.
 */
import { resolve } from "node:path";
import { HarnessError } from "../errors.ts";
import { loadProjectInstructions } from "./project_instructions.ts";
import { checkPromptTemplate } from "./prompt.ts";
import { resolveProtocol } from "./protocols/mod.ts";
import { loadContext } from "./request_schema.ts";
import type { HarnessSpec } from "./spec_schema.ts";
import type { ContextEntry, Harness, HarnessTool, LeanSurface } from "./types.ts";

/** What loading `[lean]` needs from the rest of the spec's loading. */
export interface LeanLoadOptions {
  /** The harness folder. */
  dir: string;
  /** Its `harness.toml`, named in errors. */
  specFile: string;
  /** The harness's tools, loaded and checked. */
  tools: HarnessTool[];
  at: (key: string) => string;
  readText: (path: string, where: string) => Promise<string>;
}

/** The spec's `[lean]` read and checked against its tools and layout (`{}` without one). */
export async function loadLean(
  spec: HarnessSpec,
  opts: LeanLoadOptions,
): Promise<{ lean?: LeanSurface }> {
  if (!spec.lean) return {};
  const { tools: names, system_prompt: promptPath, context } = spec.lean;
  const at = (key: string) => opts.at(`lean.${key}`);
  const kept = leanTools(opts.tools, names, at("tools"));
  // A text protocol parses commands into its tools, so those it needs must stay.
  resolveProtocol(spec.interaction, { tools: kept, at: (key) => at(key) });
  const file = resolve(opts.dir, promptPath);
  const systemPrompt = await opts.readText(file, at("system_prompt"));
  checkPromptTemplate(systemPrompt, file, "lean system prompt");
  const entries = await loadContext(context, {
    dir: opts.dir,
    specFile: opts.specFile,
    systemPrompt: {
      text: systemPrompt,
      slot: spec.system_prompt_slot,
      cache: spec.system_prompt_cache,
    },
    at,
    readText: opts.readText,
  });
  checkLeanInstructions(spec, entries, at);
  const placed = await loadProjectInstructions(spec.project_instructions, {
    dir: opts.dir,
    context: entries,
    at,
    readText: opts.readText,
  });
  return { lean: { tools: names, systemPrompt, context: placed.context } };
}

/** The tools `names` picks, in the harness's order; each name must be one of its tools. */
function leanTools(tools: HarnessTool[], names: string[], where: string): HarnessTool[] {
  const all = tools.map((t) => t.declaration.name);
  for (const [i, name] of names.entries()) {
    if (!all.includes(name)) {
      throw new HarnessError(`${where}: "${name}" is not a tool of this harness`, {
        hint: `Name tools its [[tools]] entries declare: ${all.join(", ")}`,
      });
    }
    if (names.indexOf(name) !== i) {
      throw new HarnessError(`${where}: "${name}" is listed twice`, {
        hint: "List each tool once",
      });
    }
  }
  return tools.filter((t) => names.includes(t.declaration.name));
}

/**
 * Project instructions placed inline must have a place in the lean layout too, so that lean
 * mode never drops them silently (the full layout is checked the same way).
 */
function checkLeanInstructions(
  spec: HarnessSpec,
  entries: ContextEntry[],
  at: (key: string) => string,
): void {
  if (spec.project_instructions?.slot !== "inline") return;
  if (entries.some((e) => /\{\{\s*agents_md\s*\}\}/.test(e.text))) return;
  throw new HarnessError(
    `${at("system_prompt")}: project instructions go inline, but neither the lean prompt nor ` +
      "a lean context entry has {{agents_md}}",
    { hint: "Put {{agents_md}} in the lean prompt where the project's instructions belong" },
  );
}

/**
 * `h` as a session presents it in lean mode, for `reason`: its lean tools (none deferred),
 * prompt and context. A harness without `[lean]` keeps its full surface; `leanReason` records
 * the request either way, for `/status`.
 */
export function leanView(h: Harness, reason: string): Harness {
  const lean = h.lean;
  if (!lean) return { ...h, leanReason: reason };
  return {
    ...h,
    systemPrompt: lean.systemPrompt,
    context: lean.context,
    tools: h.tools.filter((t) => lean.tools.includes(t.declaration.name))
      .map((t) => t.deferred ? { ...t, deferred: false } : t),
    leanReason: reason,
  };
}

/**
 * What the banner and `/status` add after the harness id: `lean: 0.6B parameters`, or that the
 * harness has no lean surface; undefined for a session that did not ask for one.
 */
export function surfaceNote(h: Pick<Harness, "lean" | "leanReason">): string | undefined {
  if (h.leanReason === undefined) return undefined;
  return h.lean ? `lean: ${h.leanReason}` : `full: it has no [lean] section (${h.leanReason})`;
}
