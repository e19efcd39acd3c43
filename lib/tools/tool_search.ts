import * as z from "zod";
import type { ImageResult } from "./image_types.ts";
import { ToolError } from "../errors.ts";
import { defineCapability } from "./capability.ts";
import type { CatalogEntry } from "./types.ts";

export type { CatalogEntry, ToolCatalog } from "./types.ts";

/** What a search found: matches best first, and `select:` names that matched no tool. */
export interface SearchHits {
  matches: CatalogEntry[];
  missing: string[];
}

const SELECT = /^select:/i;

/**
 * Searches `entries`. `select:A,B` picks tools by exact name (then case-insensitively), in the
 * order given, ignoring `max`. Otherwise the query is keywords: each scores on the tool name
 * (words split at case changes, `_`, `-` and `.`) and, lower, on the description; a `+word`
 * must match for a tool to count. The best `max` tools are returned.
 */
export function searchCatalog(entries: CatalogEntry[], query: string, max: number): SearchHits {
  const q = query.trim();
  if (SELECT.test(q)) return selectByName(entries, q.replace(SELECT, ""));
  const terms = q.toLowerCase().split(/\s+/).filter((t) => t !== "" && t !== "+");
  const scored = entries.map((entry) => ({ entry, score: scoreEntry(entry, terms) }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.entry.name.localeCompare(b.entry.name));
  return { matches: scored.slice(0, max).map((s) => s.entry), missing: [] };
}

function selectByName(entries: CatalogEntry[], list: string): SearchHits {
  const hits: SearchHits = { matches: [], missing: [] };
  for (const name of list.split(",").map((n) => n.trim()).filter(Boolean)) {
    const entry = entries.find((e) => e.name === name) ??
      entries.find((e) => e.name.toLowerCase() === name.toLowerCase());
    if (!entry) hits.missing.push(name);
    else if (!hits.matches.includes(entry)) hits.matches.push(entry);
  }
  return hits;
}

function scoreEntry(entry: CatalogEntry, terms: string[]): number {
  const name = entry.name.toLowerCase();
  const words = nameWords(entry.name);
  const description = entry.description.toLowerCase();
  let total = 0;
  for (const raw of terms) {
    const required = raw.startsWith("+");
    const term = required ? raw.slice(1) : raw;
    let score = 0;
    if (name === term) score = 10;
    else if (words.includes(term)) score = 5;
    else if (name.includes(term)) score = 3;
    else if (description.includes(term)) score = 1;
    if (required && score === 0) return 0;
    total += score;
  }
  return total;
}

/** `NotebookEdit` → notebook, edit; `web_fetch` → web, fetch. */
function nameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[\s_.-]+/)
    .filter(Boolean);
}

/** Input of `tools.search`. */
const toolSearchInput = z.object({
  query: z.string().min(1).describe("`select:Name1,Name2` for exact names, or keywords"),
  max_results: z.number().int().min(1).optional().describe("Most keyword matches (default 5)"),
  load: z.boolean().optional().describe("Send the matches with later requests (default true)"),
});

/** Result of `tools.search`; text fields are ready for harness result templates. */
export interface ToolSearchOutput {
  tools: CatalogEntry[];
  count: number;
  /** Matched names, comma-separated. */
  names: string;
  /** One `name: first description line` line per match; "" when nothing matched. */
  output: string;
  /** The matches' full declarations as a JSON array. */
  declarations: string;
  /** `select:` names that matched no deferred tool, comma-separated; null when none. */
  missing: string | null;
  /** Names now sent with every request. */
  loaded: string[];
}

const DEFAULT_MAX_RESULTS = 5;

/**
 * Finds deferred tools of the session's harness and, unless `load` is false, makes them part
 * of every later request, so the model can call them from its next reply on.
 */
export const toolSearch = defineCapability({
  id: "tools.search",
  input: toolSearchInput,
  mutates: false,
  run(input, ctx): Promise<ToolSearchOutput> {
    const catalog = ctx.toolCatalog;
    if (!catalog) return Promise.reject(noCatalog());
    const hits = searchCatalog(
      catalog.list(),
      input.query,
      input.max_results ?? DEFAULT_MAX_RESULTS,
    );
    const names = hits.matches.map((t) => t.name);
    const loaded = input.load === false ? [] : catalog.load(names);
    return Promise.resolve({
      tools: hits.matches,
      count: names.length,
      names: names.join(", "),
      output: hits.matches.map((t) => `${t.name}: ${t.description.split("\n")[0]}`).join("\n"),
      declarations: JSON.stringify(hits.matches),
      missing: hits.missing.length ? hits.missing.join(", ") : null,
      loaded,
    });
  },
});

/** Input of `tools.call`. */
const toolCallInput = z.object({
  name: z.string().min(1).describe("Wire name of the tool to run"),
  arguments: z.unknown().describe("The tool's arguments: a JSON object or its JSON text"),
});

/** Runs a harness tool (usually a deferred one) by name without loading it first. */
export const toolCall = defineCapability({
  id: "tools.call",
  input: toolCallInput,
  // The tool it runs passes the approval chain itself, by its own capability (deferred.ts), so
  // a read-only session refuses only calls to tools that change files.
  mutates: false,
  async run(input, ctx): Promise<{ output: string } | ImageResult> {
    if (!ctx.toolCatalog) throw noCatalog();
    const result = await ctx.toolCatalog.call(input.name, input.arguments ?? {}, ctx);
    // A picture (zoom_image) stays one, so the loop sends it as an image.
    return typeof result === "string" ? { output: result } : result;
  },
});

function noCatalog(): ToolError {
  return new ToolError(
    "Tool search is not available in this session",
    "Use the tools you were given directly",
  );
}
