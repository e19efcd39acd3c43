import { join } from "node:path";
import { z } from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability, type ToolContext } from "./capability.ts";
import { globMatcher, runRg, type SearchEngine, searchEngine, walkFiles } from "./_file_walk.ts";
import { displayPath } from "./_paths.ts";
import { searchRoot } from "./fs_glob.ts";
import { fsOf } from "./_fs.ts";
import type { FileSystem } from "../../sandbox/file_system.ts";

/** Entries returned when the call gives no `head_limit`. */
export const DEFAULT_GREP_LIMIT = 1000;
/** Files larger than this are not searched (ripgrep `--max-filesize 1M`). */
export const MAX_GREP_FILE_BYTES = 1024 * 1024;
/** Characters kept of a longer matching or context line. */
export const MAX_GREP_LINE_CHARS = 2000;

/** Input of `fs.grep`. */
export const fsGrepInput = z.object({
  pattern: z.string().min(1).describe("Regular expression, searched line by line"),
  path: z.string().optional().describe("Folder to search, absolute or relative to the workspace"),
  glob: z.string().optional().describe("Only search files matching this glob, e.g. `*.ts`"),
  output_mode: z.enum(["files_with_matches", "content", "count", "count_matches"]).optional()
    .describe("files_with_matches (default): paths; content: lines; count(_matches): per file"),
  case_insensitive: z.boolean().optional(),
  context: z.number().int().min(0).optional().describe("Lines of context around each match"),
  head_limit: z.number().int().min(1).optional().describe("Return at most this many entries"),
});

/** Input of `fs.grep`, parsed. */
export type FsGrepInput = z.infer<typeof fsGrepInput>;

/** One matching line, or a context line near one. */
export interface GrepLine {
  path: string;
  /** Line number, counting from 1. */
  line: number;
  text: string;
  /** False for a context line. */
  match: boolean;
}

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
 * Searches file contents with a regular expression: ripgrep (`rg --json`) when installed, else
 * a JS search over the same files (JS RegExp syntax, which agrees with ripgrep's on common
 * patterns). Hidden, `.gitignore`d, binary and over-1-MiB files are skipped.
 */
export const fsGrep = defineCapability({
  id: "fs.grep",
  input: fsGrepInput,
  mutates: false,
  async run(input, ctx): Promise<FsGrepOutput> {
    return grepFiles(input, ctx, await searchEngine(ctx));
  },
});

type Hits = Map<string, GrepLine[]>;

/** `fs.grep` with a chosen engine; both engines give the same result. */
export async function grepFiles(
  input: FsGrepInput,
  ctx: ToolContext,
  engine: SearchEngine,
): Promise<FsGrepOutput> {
  const root = await searchRoot(ctx, input.path, "search");
  const wanted = input.output_mode ?? "files_with_matches";
  const mode = wanted === "count_matches" ? "count" : wanted;
  const context = mode === "content" ? input.context ?? 0 : 0;
  const hits = engine === "rg"
    ? await rgSearch(root, input, context, ctx)
    : await jsSearch(root, input, context, ctx);
  const files = [...hits.keys()].sort();
  const limit = input.head_limit ?? DEFAULT_GREP_LIMIT;
  const out: FsGrepOutput = {
    root: displayPath(ctx.cwd, root),
    mode,
    files: files.slice(0, limit),
    lines: [],
    counts: [],
    truncated: files.length > limit,
  };
  if (mode === "content") {
    const all = files.flatMap((f) => hits.get(f)!);
    out.lines = all.slice(0, limit);
    out.truncated = all.length > limit;
  } else if (mode === "count") {
    out.counts = out.files.map((path) => ({
      path,
      count: hits.get(path)!.filter((l) => l.match).length,
    }));
  }
  return out;
}

async function rgSearch(
  root: string,
  input: FsGrepInput,
  context: number,
  ctx: ToolContext,
): Promise<Hits> {
  const args = ["--json", "--crlf", "--max-filesize", "1M"];
  if (input.case_insensitive) args.push("--ignore-case");
  if (context > 0) args.push("--context", String(context));
  args.push("--regexp", input.pattern, "--", ".");
  let text: string;
  try {
    text = await runRg(args, root, ctx);
  } catch (err) {
    throw new ToolError(
      `Cannot search for "${input.pattern}": ${(err as Error).message}`,
      "Check the regular expression syntax",
    );
  }
  // A ripgrep --glob would override the ignore rules, so the glob filters its results here.
  const wanted = input.glob === undefined ? () => true : globMatcher(input.glob);
  const hits: Hits = new Map();
  for (const raw of text.split("\n")) {
    if (raw === "") continue;
    const msg = JSON.parse(raw) as RgMessage;
    if (msg.type !== "match" && msg.type !== "context") continue;
    const path = rgText(msg.data.path).replace(/^\.\//, "");
    if (!wanted(path)) continue;
    const lines = rgText(msg.data.lines).replace(/\r?\n$/, "").split("\n");
    const entry = hits.get(path) ?? [];
    lines.forEach((t, i) =>
      entry.push({
        path,
        line: msg.data.line_number + i,
        text: capLine(t.replace(/\r$/, "")),
        match: msg.type === "match",
      })
    );
    hits.set(path, entry);
  }
  return hits;
}

interface RgMessage {
  type: string;
  data: {
    path: { text?: string; bytes?: string };
    lines: { text?: string; bytes?: string };
    line_number: number;
  };
}

function rgText(v: { text?: string; bytes?: string }): string {
  if (v.text !== undefined) return v.text;
  const bytes = Uint8Array.from(atob(v.bytes ?? ""), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

async function jsSearch(
  root: string,
  input: FsGrepInput,
  context: number,
  ctx: ToolContext,
): Promise<Hits> {
  let re: RegExp;
  try {
    re = new RegExp(input.pattern, input.case_insensitive ? "iu" : "u");
  } catch (err) {
    throw new ToolError(
      `Cannot search for "${input.pattern}": ${(err as Error).message}`,
      "Check the regular expression syntax",
    );
  }
  const hits: Hits = new Map();
  const fs = fsOf(ctx);
  for (const path of await walkFiles(root, { glob: input.glob, signal: ctx.signal, fs })) {
    const found = await searchFile(fs, join(root, path), { path, re, context });
    if (found.length) hits.set(path, found);
  }
  return hits;
}

async function searchFile(
  fs: FileSystem,
  abs: string,
  opts: { path: string; re: RegExp; context: number },
): Promise<GrepLine[]> {
  const { path, re, context } = opts;
  const stat = await fs.stat(abs);
  if (stat.size > MAX_GREP_FILE_BYTES) return [];
  const bytes = await fs.readFile(abs);
  if (bytes.includes(0)) return [];
  const lines = new TextDecoder().decode(bytes).split("\n");
  if (lines.at(-1) === "") lines.pop();
  const matched = new Set<number>();
  lines.forEach((l, i) => re.test(l.replace(/\r$/, "")) && matched.add(i));
  const shown = new Set<number>();
  for (const i of matched) {
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) {
      shown.add(j);
    }
  }
  return [...shown].sort((a, b) => a - b).map((i) => ({
    path,
    line: i + 1,
    text: capLine(lines[i].replace(/\r$/, "")),
    match: matched.has(i),
  }));
}

function capLine(text: string): string {
  return text.length > MAX_GREP_LINE_CHARS ? text.slice(0, MAX_GREP_LINE_CHARS) + "…" : text;
}
