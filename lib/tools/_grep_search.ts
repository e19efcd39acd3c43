import { join } from "node:path";
import type { ToolContext } from "./capability.ts";
import { fileCounter, walkFiles } from "./_file_walk.ts";
import { fileGlobMatcher } from "./glob_match.ts";
import { rgPath, rgRecords } from "./_rg.ts";
import { fsOf } from "./_fs.ts";
import type { FileSystem } from "../../sandbox/file_system.ts";

/** Files larger than this are not searched (ripgrep `--max-filesize 1M`). */
const MAX_GREP_FILE_BYTES = 1024 * 1024;
/** Characters kept of a longer matching or context line. */
const MAX_GREP_LINE_CHARS = 2000;

/** One matching line, or a context line near one. */
export interface GrepLine {
  path: string;
  /** Line number, counting from 1. */
  line: number;
  text: string;
  /** False for a context line. */
  match: boolean;
}

/** One search, as both engines take it. */
export interface GrepQuery {
  /** Absolute folder searched. */
  root: string;
  pattern: string;
  caseInsensitive: boolean;
  glob?: string;
  mode: "files_with_matches" | "content" | "count";
  /** Context lines around each match (content mode). */
  context: number;
  /** Entries returned. */
  limit: number;
}

/** A file with at least one matching line. */
export interface GrepHit {
  path: string;
  /** Matching lines. */
  count: number;
  /** Matching and context lines; filled in content mode only. */
  lines: GrepLine[];
}

/**
 * Whether the first `files` hits in path order, with `lines` lines among them, decide the result:
 * content mode needs `limit` paths and one line past the limit, the others one path past it.
 */
function enough(q: GrepQuery, files: number, lines: number): boolean {
  return q.mode === "content" ? files >= q.limit && lines > q.limit : files > q.limit;
}

/**
 * The hits of the search with ripgrep, in path order, as many as `enough` needs. ripgrep is
 * asked only for what the mode shows: paths (`-l`) or per-file counts; in content mode the
 * lines (`--json`) come from a second run over just the files the result can reach.
 */
export async function rgSearch(q: GrepQuery, ctx: ToolContext): Promise<GrepHit[]> {
  const flags = ["--crlf", "--max-filesize", "1M", "--null"];
  if (q.caseInsensitive) flags.push("--ignore-case");
  flags.push("--regexp", q.pattern, "--", ".");
  // A ripgrep --glob would override the ignore rules, so the glob filters its results here.
  const wanted = q.glob === undefined ? () => true : fileGlobMatcher(q.glob);
  // Every hit has a matching line, so the first limit + 1 hold what any mode can show.
  const first = new FirstInPathOrder(q.limit + 1);
  const take = (path: string) => first.wants(path) && wanted(path);
  const opts = { cwd: q.root, separator: 0 };
  if (q.mode === "files_with_matches") {
    await rgRecords(["--files-with-matches", ...flags], opts, ctx, (raw) => {
      const path = rgPath(raw);
      if (take(path)) first.add({ path, count: 0, lines: [] });
      return true;
    });
  } else {
    // `--count --null` prints `path NUL count LF`: after the first, each NUL-ended record is
    // the previous file's count, a newline, then the next path.
    let path: string | undefined;
    await rgRecords(["--count", ...flags], opts, ctx, (raw) => {
      const nl = path === undefined ? -1 : raw.indexOf("\n");
      if (path !== undefined && take(path)) {
        first.add({ path, count: Number(raw.slice(0, nl)), lines: [] });
      }
      path = rgPath(raw.slice(nl + 1));
      return true;
    });
    if (path) throw new Error(`rg failed: no count after "${path}"`);
  }
  const hits = first.sorted();
  if (q.mode === "content") await rgLines(q, hits, ctx);
  return hits;
}

const byPath = (a: GrepHit, b: GrepHit) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0;

/**
 * The first `keep` hits in path order of hits given in any order (ripgrep prints files as its
 * threads finish them). Once `keep` are held, a path that sorts after the last one held is
 * turned away with one comparison, so a search of many files sorts only a few of them.
 */
class FirstInPathOrder {
  readonly #keep: number;
  #hits: GrepHit[] = [];
  #bound: string | undefined;

  constructor(keep: number) {
    this.#keep = keep;
  }

  /** Whether a hit at `path` could be among the first; false means it needs no more work. */
  wants(path: string): boolean {
    return this.#bound === undefined || path < this.#bound;
  }

  add(hit: GrepHit): void {
    this.#hits.push(hit);
    if (this.#hits.length >= 2 * this.#keep) {
      this.#hits = this.sorted();
      this.#bound = this.#hits[this.#keep - 1].path;
    }
  }

  sorted(): GrepHit[] {
    return this.#hits.sort(byPath).slice(0, this.#keep);
  }
}

/** How many hits, in path order, hold the first `limit + 1` lines (every match is a line). */
function reach(q: GrepQuery, hits: GrepHit[]): number {
  let lines = 0;
  for (const [i, hit] of hits.entries()) {
    lines += hit.count;
    if (lines > q.limit) return i + 1;
  }
  return hits.length;
}

/** Arguments' bytes per `rg --json` run, well below the kernel's limit on a command line. */
const MAX_ARG_BYTES = 64 * 1024;

/** Fills in the lines of the hits `reach` names, by `rg --json` over those files only. */
async function rgLines(q: GrepQuery, hits: GrepHit[], ctx: ToolContext): Promise<void> {
  const flags = ["--json", "--crlf"];
  if (q.caseInsensitive) flags.push("--ignore-case");
  if (q.context > 0) flags.push("--context", String(q.context));
  flags.push("--regexp", q.pattern, "--");
  const wanted = hits.slice(0, reach(q, hits));
  const byPath = new Map(wanted.map((h) => [h.path, h]));
  let lines = 0;
  for (let from = 0; from < wanted.length && lines <= q.limit;) {
    const batch: string[] = [];
    for (let bytes = 0; from < wanted.length && bytes < MAX_ARG_BYTES; from++) {
      batch.push(wanted[from].path);
      bytes += wanted[from].path.length + 1;
    }
    await rgRecords([...flags, ...batch], { cwd: q.root, separator: 0x0a }, ctx, (raw) => {
      lines += addJsonLines(byPath, raw);
      return true;
    });
  }
}

/** Adds the lines of one `rg --json` message to its file's hit; returns how many. */
function addJsonLines(byPath: Map<string, GrepHit>, raw: string): number {
  if (!raw.startsWith('{"type":"match"') && !raw.startsWith('{"type":"context"')) return 0;
  const msg = JSON.parse(raw) as RgMessage;
  const hit = byPath.get(rgPath(rgText(msg.data.path)));
  if (!hit) return 0;
  const lines = rgText(msg.data.lines).replace(/\r?\n$/, "").split("\n");
  lines.forEach((t, i) =>
    hit.lines.push({
      path: hit.path,
      line: msg.data.line_number + i,
      text: capLine(t.replace(/\r$/, "")),
      match: msg.type === "match",
    })
  );
  return lines.length;
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

/** Files read at once by the JS search, ahead of the one being searched. */
const READ_WIDTH = 16;

/**
 * The hits of the search in JS, in path order, as many as `enough` needs: files are walked in
 * path order and the walk stops there. `re` is the compiled pattern.
 */
export async function jsSearch(q: GrepQuery, re: RegExp, ctx: ToolContext): Promise<GrepHit[]> {
  const fs = fsOf(ctx);
  const onFile = fileCounter(ctx.progress, (n) => `looked at ${n} files`);
  const paths = walkFiles(q.root, { glob: q.glob, signal: ctx.signal, fs, onFile });
  const context = q.mode === "content" ? q.context : 0;
  const search = (path: string) => searchFile(fs, join(q.root, path), { path, re, context });
  const hits: GrepHit[] = [];
  let lines = 0;
  for await (const hit of mapAhead(paths, READ_WIDTH, search)) {
    if (hit.count === 0) continue;
    hits.push(hit);
    lines += hit.lines.length;
    if (enough(q, hits.length, lines)) break;
  }
  return hits;
}

/** `fn` over `source` in order, up to `width` calls running ahead of the consumer. */
async function* mapAhead<T, R>(
  source: AsyncIterator<T>,
  width: number,
  fn: (item: T) => Promise<R>,
): AsyncGenerator<R> {
  const pending: Promise<R>[] = [];
  let done = false;
  try {
    for (;;) {
      while (!done && pending.length < width) {
        const next = await source.next();
        if (next.done) done = true;
        else {
          const p = fn(next.value);
          p.catch(() => {}); // awaited below; this keeps an early failure from going unhandled
          pending.push(p);
        }
      }
      const first = pending.shift();
      if (!first) return;
      yield await first;
    }
  } finally {
    await Promise.allSettled(pending);
    await source.return?.(undefined);
  }
}

async function searchFile(
  fs: FileSystem,
  abs: string,
  opts: { path: string; re: RegExp; context: number },
): Promise<GrepHit> {
  const { path, re, context } = opts;
  const none = { path, count: 0, lines: [] };
  const stat = await fs.stat(abs);
  if (stat.size > MAX_GREP_FILE_BYTES) return none;
  const bytes = await fs.readFile(abs);
  if (bytes.includes(0)) return none;
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
  const found = [...shown].sort((a, b) => a - b).map((i) => ({
    path,
    line: i + 1,
    text: capLine(lines[i].replace(/\r$/, "")),
    match: matched.has(i),
  }));
  return { path, count: matched.size, lines: found };
}

function capLine(text: string): string {
  return text.length > MAX_GREP_LINE_CHARS ? text.slice(0, MAX_GREP_LINE_CHARS) + "…" : text;
}
