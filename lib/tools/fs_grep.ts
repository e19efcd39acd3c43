import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability, type ToolContext } from "./capability.ts";
import { type SearchEngine, searchEngine } from "./_rg.ts";
import { type GrepHit, type GrepLine, type GrepQuery, jsSearch, rgSearch } from "./_grep_search.ts";
import { displayPath } from "./_paths.ts";
import { filterHits, type GrepFilters, literalPattern } from "./_grep_filters.ts";
import { searchRoot } from "./fs_glob.ts";

/** Entries returned when the call gives no `head_limit`. */
const DEFAULT_GREP_LIMIT = 1000;

/** Input of `fs.grep`. */
const fsGrepInput = z.object({
  pattern: z.string().min(1).describe("Regular expression, searched line by line"),
  path: z.string().optional().describe("Folder to search, absolute or relative to the workspace"),
  glob: z.string().optional().describe("Only search files matching this glob, e.g. `*.ts`"),
  output_mode: z.enum(["files_with_matches", "content", "count", "count_matches"]).optional()
    .describe("files_with_matches (default): paths; content: lines; count(_matches): per file"),
  case_insensitive: z.boolean().optional(),
  case_sensitive: z.boolean().optional()
    .describe("Match case exactly (true) or not (false); wins over `case_insensitive`"),
  fixed_strings: z.boolean().optional().describe("Take `pattern` as literal text"),
  exclude_pattern: z.string().min(1).optional()
    .describe("Regular expression: matching lines that also match it are left out"),
  context: z.number().int().min(0).optional().describe("Lines of context around each match"),
  before: z.number().int().min(0).optional().describe("Context lines before each match"),
  after: z.number().int().min(0).optional().describe("Context lines after each match"),
  max_matches_per_file: z.number().int().min(1).optional()
    .describe("Keep at most this many matches of any one file"),
  head_limit: z.number().int().min(1).optional().describe("Return at most this many entries"),
});

/** Input of `fs.grep`, parsed. */
export type FsGrepInput = z.infer<typeof fsGrepInput>;

/** Result of `fs.grep`. Paths are relative to `root`; files are in path order. */
export interface FsGrepOutput {
  /** The searched folder, relative to the workspace when inside it. */
  root: string;
  mode: "files_with_matches" | "content" | "count";
  /** Files with at least one matching line (every mode). */
  files: string[];
  /** content mode: matching and context lines, by file then line. */
  lines: GrepLine[];
  /** count mode: matching lines per file. */
  counts: { path: string; count: number }[];
  /** Whether `head_limit` (or the default limit) dropped entries. */
  truncated: boolean;
}

/**
 * Searches file contents with a regular expression: ripgrep when installed, else a JS search
 * over the same files (JS RegExp syntax, which agrees with ripgrep's on common patterns).
 * Hidden, `.gitignore`d, binary and over-1-MiB files are skipped.
 */
export const fsGrep = defineCapability({
  id: "fs.grep",
  input: fsGrepInput,
  mutates: false,
  async run(input, ctx): Promise<FsGrepOutput> {
    return grepFiles(input, ctx, await searchEngine(ctx));
  },
});

/** `fs.grep` with a chosen engine; both engines give the same result. */
export async function grepFiles(
  input: FsGrepInput,
  ctx: ToolContext,
  engine: SearchEngine,
): Promise<FsGrepOutput> {
  const wanted = input.output_mode ?? "files_with_matches";
  const mode = wanted === "count_matches" ? "count" : wanted;
  const filters = postFilters(input, mode);
  const q: GrepQuery = {
    root: await searchRoot(ctx, input.path, "search"),
    pattern: input.fixed_strings ? literalPattern(input.pattern) : input.pattern,
    caseInsensitive: input.case_sensitive === undefined
      ? input.case_insensitive ?? false
      : !input.case_sensitive,
    glob: input.glob,
    mode,
    context: mode === "content" ? input.context ?? 0 : 0,
    limit: input.head_limit ?? DEFAULT_GREP_LIMIT,
  };
  const root = displayPath(ctx.cwd, q.root);
  if (!filters) {
    return resultOf(q, await searchHits(q, { ctx, engine, given: input.pattern }), root);
  }
  // The engines stop at the limit, so the filters get every line up to FILTERED_LINES.
  const wide = { ...q, mode: "content" as const, context: filters.span, limit: FILTERED_LINES };
  const hits = await searchHits(wide, { ctx, engine, given: input.pattern });
  return resultOf(q, filterHits(hits, filters), root);
}

/** Lines a filtered search reads at most before its filters apply. */
const FILTERED_LINES = 20_000;

/** The filters `input` asks for, with the context lines to search for; undefined for none. */
function postFilters(
  input: FsGrepInput,
  mode: GrepQuery["mode"],
): (GrepFilters & { span: number }) | undefined {
  const { exclude_pattern, max_matches_per_file: maxPerFile, before, after } = input;
  if (exclude_pattern === undefined && maxPerFile === undefined) {
    if (before === undefined && after === undefined) return undefined;
    if (mode !== "content") return undefined;
  }
  const context = mode === "content" ? input.context ?? 0 : 0;
  const lines = { before: before ?? context, after: after ?? context };
  if (mode !== "content") Object.assign(lines, { before: 0, after: 0 });
  let exclude: RegExp | undefined;
  try {
    exclude = exclude_pattern === undefined ? undefined : new RegExp(exclude_pattern, "u");
  } catch (err) {
    throw new ToolError(
      `Cannot use exclude pattern "${exclude_pattern}": ${(err as Error).message}`,
      "Check the regular expression syntax",
    );
  }
  return { exclude, maxPerFile, ...lines, span: Math.max(lines.before, lines.after) };
}

/** The hits of `q` with the chosen engine. */
async function searchHits(
  q: GrepQuery,
  opts: { ctx: ToolContext; engine: SearchEngine; given: string },
): Promise<GrepHit[]> {
  const { ctx } = opts;
  const cannot = (err: unknown) =>
    new ToolError(
      `Cannot search for "${opts.given}": ${(err as Error).message}`,
      "Check the regular expression syntax",
    );
  if (opts.engine === "rg") {
    return await rgSearch(q, ctx).catch((err) => {
      throw err instanceof ToolError || ctx.signal.aborted ? err : cannot(err);
    });
  }
  let re: RegExp;
  try {
    re = new RegExp(q.pattern, q.caseInsensitive ? "iu" : "u");
  } catch (err) {
    throw cannot(err);
  }
  return await jsSearch(q, re, ctx);
}

/** The output from the first hits in path order (as many as the result can show, and one). */
function resultOf(q: GrepQuery, hits: GrepHit[], root: string): FsGrepOutput {
  const files = hits.map((h) => h.path);
  const out: FsGrepOutput = {
    root,
    mode: q.mode,
    files: files.slice(0, q.limit),
    lines: [],
    counts: [],
    truncated: files.length > q.limit,
  };
  if (q.mode === "content") {
    const all = hits.flatMap((h) => h.lines);
    out.lines = all.slice(0, q.limit);
    out.truncated = all.length > q.limit;
  } else if (q.mode === "count") {
    out.counts = hits.slice(0, q.limit).map(({ path, count }) => ({ path, count }));
  }
  return out;
}
