import type { ToolContext } from "./capability.ts";
import { preparedProcess, sandboxedSpawn } from "./_sandboxed_spawn.ts";
import { type SpawnSpec, specCommand } from "../../sandbox/command_sandbox.ts";
import { fileGlobMatcher } from "./glob_match.ts";
import { resourceKey, resourcesOf } from "./resources.ts";

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

/** A probe of this process's sandbox, not session data: a resumed session checks again. */
const RG_AVAILABLE = resourceKey<boolean>("tools.rg_available");

/**
 * Whether `rg` can be run in the session's sandbox; checked once per session and remembered in
 * `ctx.resources`. Where the sandbox refuses commands, the JS search is used.
 */
export async function searchEngine(ctx: ToolContext): Promise<SearchEngine> {
  const resources = resourcesOf(ctx);
  let known = resources.get(RG_AVAILABLE);
  if (known === undefined) {
    try {
      let ok = false;
      await rgRecords(["--version"], { cwd: ctx.cwd, separator: 0x0a, filter: false }, ctx, () => {
        ok = true;
        return false;
      });
      known = ok;
    } catch {
      known = false;
    }
    resources.set(RG_AVAILABLE, known);
  }
  return known ? "rg" : "js";
}

/** Options of `rgRecords`. */
export interface RgRecordsOptions {
  cwd: string;
  /** The byte between records: NUL (`--null` paths) or a newline. */
  separator: number;
  /** Whether RG_FILTER_FLAGS go first; true unless told. */
  filter?: boolean;
}

/**
 * Runs `rg` in the session's command sandbox and hands each record of its stdout to `onRecord`
 * as it arrives; when `onRecord` returns false, reading stops and `rg` is killed. Nothing but
 * the unfinished record is buffered. Throws with rg's stderr when it exits with code 2 (an
 * error, not "no match") and was not stopped.
 */
export async function rgRecords(
  args: string[],
  opts: RgRecordsOptions,
  ctx: ToolContext,
  onRecord: (record: string) => boolean,
): Promise<void> {
  const argv = ["rg", ...(opts.filter === false ? [] : RG_FILTER_FLAGS), ...args];
  const how = { cwd: opts.cwd, env: ctx.env };
  // A sandbox prepared ahead saves making one (tens of ms, more than a small search takes).
  const child = await preparedProcess(argv, how, ctx) ??
    spawnRg(await sandboxedSpawn(argv, how, ctx), opts.cwd);
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch { /* it had exited already */ }
  };
  ctx.signal.addEventListener("abort", kill, { once: true });
  if (ctx.signal.aborted) kill();
  const stderr = new Response(child.stderr).arrayBuffer().catch(() => new ArrayBuffer(0));
  let finished = false;
  try {
    finished = await readRecords(child.stdout, opts.separator, onRecord);
  } finally {
    if (!finished) kill();
    await child.status;
    ctx.signal.removeEventListener("abort", kill);
  }
  const [status, err] = await Promise.all([child.status, stderr]);
  ctx.signal.throwIfAborted();
  if (finished && status.code > 1) {
    throw new Error(`rg failed: ${new TextDecoder().decode(err).trim()}`);
  }
}

function spawnRg(spec: SpawnSpec, cwd: string): Deno.ChildProcess {
  return specCommand(spec, cwd).spawn();
}

/**
 * Splits a byte stream into decoded records; false when `onRecord` asked to stop. The separator
 * is ASCII, which never occurs inside a UTF-8 sequence, so the text is split after decoding.
 */
async function readRecords(
  stream: ReadableStream<Uint8Array>,
  separator: number,
  onRecord: (record: string) => boolean,
): Promise<boolean> {
  const decoder = new TextDecoder();
  const sep = String.fromCharCode(separator);
  const reader = stream.getReader();
  let rest = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = rest + decoder.decode(value, { stream: true });
      let from = 0;
      for (let at = text.indexOf(sep); at !== -1; at = text.indexOf(sep, from)) {
        if (!onRecord(text.slice(from, at))) return false;
        from = at + 1;
      }
      rest = text.slice(from);
    }
    rest += decoder.decode();
    return rest === "" || onRecord(rest);
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** `rg` output paths are relative to its cwd; the leading `./` of the `.` argument goes. */
export function rgPath(raw: string): string {
  return raw.startsWith("./") ? raw.slice(2) : raw;
}

/**
 * Files under `root` (relative, `/`-separated) from `rg --files`, filtered by `glob` here: a
 * ripgrep `--glob` would override the ignore rules and list hidden and ignored files. Where the
 * glob's last segment is plain enough, ripgrep first narrows the listing to file names that
 * segment matches (a file type, which applies after the ignore rules), so few paths come back.
 */
export async function rgFiles(
  root: string,
  opts: { glob?: string },
  ctx: ToolContext,
): Promise<string[]> {
  const match = opts.glob === undefined ? () => true : fileGlobMatcher(opts.glob);
  const name = opts.glob === undefined ? undefined : nameFilter(opts.glob);
  // A file type lists hidden files whose names match; the ignore rules never list them.
  const typed = name === undefined ? [] : ["--type-add", `glob:${name}`, "--type", "glob"];
  const visible = (path: string) =>
    name === undefined || !path.slice(path.lastIndexOf("/") + 1).startsWith(".");
  const out: string[] = [];
  const args = ["--files", ...typed, "--null", "--", "."];
  await rgRecords(args, { cwd: root, separator: 0 }, ctx, (raw) => {
    const path = rgPath(raw);
    if (match(path) && visible(path)) out.push(path);
    return true;
  });
  return out;
}

/**
 * The last segment of a file glob when every file the glob matches has a name it matches in
 * ripgrep's file-type syntax too: literal characters, `*`, `?` and one level of `{a,b}`. Else
 * undefined (a negated or folder glob, classes, escapes, extglobs, nested or `/`-spanning braces).
 */
function nameFilter(glob: string): string | undefined {
  if (glob.startsWith("!") || glob.endsWith("/")) return undefined;
  const last = glob.slice(glob.lastIndexOf("/") + 1);
  const plain = "[\\w.\\- *?]";
  const segment = new RegExp(`^(?:${plain}|\\{${plain}+(?:,${plain}+)*\\})+$`);
  const before = glob.slice(0, glob.length - last.length);
  // Braces in the folders part might span the last `/`.
  if (!segment.test(last) || /[{}]/.test(before) || last.includes("**")) return undefined;
  return last;
}
