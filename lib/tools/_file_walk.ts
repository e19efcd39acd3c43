import { join } from "node:path";
import type { Ignore } from "ignore";
import type { ToolContext } from "./capability.ts";
import { sandboxedSpawn } from "./_sandboxed_spawn.ts";
import type { DirEntry, FileSystem } from "../../sandbox/file_system.ts";

/** How files are listed and searched: ripgrep when installed, else our walker (same results). */
export type SearchEngine = "rg" | "js";

/**
 * ripgrep flags that make its file filter match the JS walker's: hidden files and folders are
 * skipped, symlinks are not followed, and only `.gitignore` files at or below the search root
 * apply (whether or not it is a git repository); `.ignore`, `.rgignore`, the global git
 * excludes, `.git/info/exclude` and ignore files above the root do not.
 */
export const RG_FILTER_FLAGS: readonly string[] = Object.freeze([
  "--no-config",
  "--no-require-git",
  "--no-ignore-global",
  "--no-ignore-exclude",
  "--no-ignore-dot",
  "--no-ignore-parent",
]);

const RG_STATE_KEY = "tools.rg_available";

/**
 * Whether `rg` can be run in the session's sandbox; checked once per session and remembered in
 * `ctx.state`. Where the sandbox refuses commands, the JS search is used.
 */
export async function searchEngine(ctx: ToolContext): Promise<SearchEngine> {
  let known = ctx.state.get(RG_STATE_KEY) as boolean | undefined;
  if (known === undefined) {
    try {
      const out = await spawnRg(["--version"], ctx.cwd, ctx);
      known = out.success;
    } catch {
      known = false;
    }
    ctx.state.set(RG_STATE_KEY, known);
  }
  return known ? "rg" : "js";
}

/** Runs `rg` in `cwd`; resolves with its stdout, or throws with its stderr on exit code 2. */
export async function runRg(args: string[], cwd: string, ctx: ToolContext): Promise<string> {
  const out = await spawnRg([...RG_FILTER_FLAGS, ...args], cwd, ctx);
  if (out.code > 1) throw new Error(`rg failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  return new TextDecoder().decode(out.stdout);
}

/**
 * `rg` runs inside the command sandbox like any command the model runs: it is found on the
 * commands' `PATH`, which may name folders that sandboxed commands can write.
 */
async function spawnRg(args: string[], cwd: string, ctx: ToolContext) {
  const spec = await sandboxedSpawn(["rg", ...args], { cwd, env: ctx.env }, ctx);
  return await new Deno.Command(spec.cmd, {
    args: spec.args,
    cwd,
    env: spec.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: ctx.signal,
  }).output();
}

/**
 * Files under `root` (relative, `/`-separated) from `rg --files`, filtered by `glob` here: a
 * ripgrep `--glob` would override the ignore rules and list hidden and ignored files.
 */
export async function rgFiles(
  root: string,
  opts: { glob?: string },
  ctx: ToolContext,
): Promise<string[]> {
  const text = await runRg(["--files"], root, ctx);
  const match = opts.glob === undefined ? () => true : globMatcher(opts.glob);
  return text.split("\n").filter((l) => l !== "").map((l) => l.replace(/^\.\//, ""))
    .filter(match);
}

interface IgnoreLevel {
  /** Path of the `.gitignore`'s folder relative to the root, "" or ending in "/". */
  base: string;
  ig: Ignore;
}

/**
 * Files under `root` (relative, `/`-separated), filtered as RG_FILTER_FLAGS describes, listed
 * and read through `opts.fs` (the session's file system).
 */
export async function walkFiles(
  root: string,
  opts: { glob?: string; signal: AbortSignal; fs: FileSystem },
): Promise<string[]> {
  const fs = opts.fs;
  const match = opts.glob === undefined ? undefined : globMatcher(opts.glob);
  const out: string[] = [];
  async function visit(rel: string, levels: IgnoreLevel[]): Promise<void> {
    opts.signal.throwIfAborted();
    const dir = join(root, rel);
    const here = await loadGitignore(fs, dir, rel);
    const stack = here ? [...levels, here] : levels;
    const entries: DirEntry[] = await fs.readDir(dir);
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.isSymlink) continue;
      const path = rel + entry.name;
      if (isIgnored(stack, entry.isDirectory ? `${path}/` : path)) continue;
      if (entry.isDirectory) await visit(`${path}/`, stack);
      else if (entry.isFile && (!match || match(path))) out.push(path);
    }
  }
  await visit("", []);
  return out;
}

async function loadGitignore(
  fs: FileSystem,
  dir: string,
  base: string,
): Promise<IgnoreLevel | undefined> {
  let text: string;
  try {
    text = new TextDecoder().decode(await fs.readFile(join(dir, ".gitignore")));
  } catch {
    return undefined;
  }
  const { default: ignore } = await import("ignore"); // loaded on first use, not at start-up
  return { base, ig: ignore().add(text) };
}

/** The deepest `.gitignore` with a rule for the path decides, as in git. */
function isIgnored(stack: IgnoreLevel[], path: string): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const r = stack[i].ig.test(path.slice(stack[i].base.length));
    if (r.ignored) return true;
    if (r.unignored) return false;
  }
  return false;
}

/**
 * A matcher for a ripgrep `--glob` (gitignore syntax, plus `{a,b}` alternatives) against a
 * root-relative file path: without a `/` it matches the file name anywhere, with one it matches
 * the whole path; `*` and `?` stay within one path segment, `**` spans segments.
 */
export function globMatcher(glob: string): (path: string) => boolean {
  const negated = glob.startsWith("!");
  const body = negated ? glob.slice(1) : glob;
  const regexes = expandBraces(body).map((g) => {
    const anchored = g.replace(/\/$/, "").includes("/");
    const source = globToRegExpSource(g.replace(/^\//, ""));
    return new RegExp(anchored ? `^${source}$` : `(?:^|/)${source}$`);
  });
  return (path) => regexes.some((r) => r.test(path)) !== negated;
}

function globToRegExpSource(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (glob.startsWith("**/", i)) {
      out += "(?:.*/)?";
      i += 2;
    } else if (glob.startsWith("/**", i) && i + 3 === glob.length) {
      out += "/.*";
      i += 2;
    } else if (glob.startsWith("**", i)) {
      out += ".*";
      i += 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[" && glob.indexOf("]", i + 2) !== -1) {
      const end = glob.indexOf("]", i + 2);
      const inner = glob.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\");
      out += `[${inner}]`;
      i = end;
    } else if (c === "\\" && i + 1 < glob.length) out += escapeRe(glob[++i]);
    else out += escapeRe(c);
  }
  return out;
}

/** `a{b,c}d` → `abd`, `acd`; nested and repeated groups expand too. */
export function expandBraces(glob: string): string[] {
  const open = glob.indexOf("{");
  if (open === -1) return [glob];
  let depth = 0;
  const cuts: number[] = [];
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === "{") depth++;
    else if (glob[i] === "}" && --depth === 0) {
      const parts: string[] = [];
      let from = open + 1;
      for (const cut of cuts) {
        parts.push(glob.slice(from, cut));
        from = cut + 1;
      }
      parts.push(glob.slice(from, i));
      const rest = expandBraces(glob.slice(i + 1));
      const head = glob.slice(0, open);
      return parts.flatMap((p) => expandBraces(p).flatMap((e) => rest.map((r) => head + e + r)));
    } else if (glob[i] === "," && depth === 1) cuts.push(i);
  }
  return [glob];
}

function escapeRe(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
