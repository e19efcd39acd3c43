/**
 * Instruction files: the AGENTS.md (and, for Claude's harnesses, CLAUDE.md) files a session gives
 * the model, found as Codex finds them (reference §8.1). First the user's own file for every
 * project, then one file per folder from the project root down to the working directory. The
 * project root is the nearest folder above the working directory holding one of
 * `project_root_markers` (default `.git`); without one, only the working directory counts. In each
 * folder the first regular file among `AGENTS.override.md`, `AGENTS.md` and
 * `project_doc_fallback_filenames` is taken. The project's files share `project_doc_max_bytes`
 * (default 32 KiB, 0 leaves them out): a file over what is left is cut, with a note in the text
 * the model reads, and later ones are left out; one warning line says which. The user's own
 * file is not counted: it is read up to the larger of the budget and 32 KiB.
 *
 * Only regular files are read (a FIFO or `/dev/zero` under one of these names is skipped with a
 * warning), a project's only where it lies inside the project root once links are resolved (a
 * repository's AGENTS.md linked to a file outside is skipped with a warning), and held-back ones
 * (`held_back.ts`) not at all: the next name in the folder is tried instead.
 */
import { dirname, join, relative } from "node:path";
import type { ProjectInstructions } from "../harness/types.ts";
import { readInputFile } from "../input_file.ts";
import { checkInstructionFile, type RealRoot, realRoot } from "./_file_checks.ts";

/**
 * The kinds of instruction file: AGENTS.md for every harness, CLAUDE.md (with `.claude/CLAUDE.md`
 * and `CLAUDE.local.md`) for Claude's, GEMINI.md for Gemini CLI's, QWEN.md for Qwen Code's.
 */
export type InstructionKind = "AGENTS.md" | "CLAUDE.md" | "GEMINI.md" | "QWEN.md";

/**
 * The names of each vendor's kind read in every project folder, all that exist, in this order
 * (`.local` after its siblings), and where the user's own file is under `$HOME`.
 */
const VENDOR_FILES: Record<Exclude<InstructionKind, "AGENTS.md">, {
  names: string[];
  global: string;
}> = {
  "CLAUDE.md": {
    names: ["CLAUDE.md", join(".claude", "CLAUDE.md"), "CLAUDE.local.md"],
    global: join(".claude", "CLAUDE.md"),
  },
  "GEMINI.md": { names: ["GEMINI.md"], global: join(".gemini", "GEMINI.md") },
  "QWEN.md": { names: ["QWEN.md"], global: join(".qwen", "QWEN.md") },
};

/** One instruction file that holds text: its path and its text, trimmed and maybe cut. */
export interface InstructionFile {
  path: string;
  text: string;
  /** The user's own file for every project (`<home>/AGENTS.md`, `~/.claude/CLAUDE.md`). */
  global: boolean;
}

/** What the search found: the files in reading order, and a warning when some did not fit. */
export interface FoundInstructions {
  files: InstructionFile[];
  /** One line when project files were cut or left out for `project_doc_max_bytes`. */
  warnings: string[];
}

/** Where instruction files are looked for. */
export interface InstructionRoots {
  cwd: string;
  /** The interpreter home: `<home>/AGENTS.override.md` or `<home>/AGENTS.md`. */
  home: string;
  /** The user's home directory (`$HOME`): `$HOME/.claude/CLAUDE.md`. */
  userHome?: string;
  /** True for a project file held back because it changed while an earlier session ran. */
  isHeldBack?: (path: string) => boolean;
}

/** How project files are found and how much of them is read (the config keys). */
export interface InstructionOptions {
  /** `project_root_markers`; default `[".git"]`. */
  rootMarkers?: readonly string[];
  /** `project_doc_fallback_filenames`, tried after `AGENTS.override.md` and `AGENTS.md`. */
  fallbackNames?: readonly string[];
  /** `project_doc_max_bytes`; default 32 KiB. */
  maxBytes?: number;
}

/** `project_doc_max_bytes` when unset. */
const DEFAULT_PROJECT_DOC_MAX_BYTES = 32 * 1024;

const DEFAULT_MARKERS = [".git"];

/**
 * The instruction files of `kind` that hold text, in the order the model reads them (see the
 * module comment). CLAUDE.md is `$HOME/.claude/CLAUDE.md`, then `CLAUDE.md`, `.claude/CLAUDE.md`
 * and `CLAUDE.local.md` in each folder from the project root down, under the same budget;
 * GEMINI.md and QWEN.md likewise (`~/.gemini/GEMINI.md`, `~/.qwen/QWEN.md`, one name a folder).
 */
export async function findInstructions(
  kind: InstructionKind,
  roots: InstructionRoots,
  opts: InstructionOptions = {},
): Promise<FoundInstructions> {
  const maxBytes = opts.maxBytes ?? DEFAULT_PROJECT_DOC_MAX_BYTES;
  const files: InstructionFile[] = [];
  const warnings: string[] = [];
  const skip = (path: string, problem: string) =>
    warnings.push(`Skipped the instruction file ${path}: ${problem}`);
  const globalMax = Math.max(maxBytes, DEFAULT_PROJECT_DOC_MAX_BYTES);
  const global = await readGlobal(kind, roots, { maxBytes: globalMax, skip });
  if (global) files.push(global);
  if (maxBytes === 0) return { files, warnings };
  const root = await projectRoot(roots.cwd, opts.rootMarkers ?? DEFAULT_MARKERS);
  const inside = await realRoot(root);
  const found: FoundFile[] = [];
  for (const dir of foldersDown(roots.cwd, root)) {
    const names = kind === "AGENTS.md"
      ? { first: ["AGENTS.override.md", "AGENTS.md", ...opts.fallbackNames ?? []] }
      : { all: VENDOR_FILES[kind].names };
    found.push(...await projectFilesIn(dir, names, { inside, roots, skip }));
  }
  const budget = await readWithinBudget(found, maxBytes);
  files.push(...budget.files);
  if (budget.over.length) {
    warnings.push(
      `${kind} files are over project_doc_max_bytes (${maxBytes} bytes): ${budget.over.join("; ")}`,
    );
  }
  return { files, warnings };
}

/** A project file to read: the path the model is shown, and the real path read. */
interface FoundFile {
  path: string;
  real: string;
}

/** The nearest folder from `cwd` up that holds one of `markers`; `cwd` when none does. */
async function projectRoot(cwd: string, markers: readonly string[]): Promise<string> {
  if (markers.length === 0) return cwd;
  for (let dir = cwd;; dir = dirname(dir)) {
    for (const marker of markers) {
      if (await Deno.lstat(join(dir, marker)).then(() => true, () => false)) return dir;
    }
    if (dirname(dir) === dir) return cwd;
  }
}

/** The user's own file: AGENTS.override.md when it holds text, else AGENTS.md; or CLAUDE.md. */
async function readGlobal(
  kind: InstructionKind,
  roots: InstructionRoots,
  opts: { maxBytes: number; skip: (path: string, problem: string) => void },
): Promise<InstructionFile | undefined> {
  const { maxBytes } = opts;
  const candidates = kind === "AGENTS.md"
    ? [join(roots.home, "AGENTS.override.md"), join(roots.home, "AGENTS.md")]
    : roots.userHome
    ? [join(roots.userHome, VENDOR_FILES[kind].global)]
    : [];
  for (const path of candidates) {
    const check = await checkInstructionFile(path);
    if (check.kind === "refused") opts.skip(path, check.problem);
    if (check.kind !== "ok") continue;
    const read = await readCapped(path, maxBytes);
    if (read?.text) {
      return { path, text: read.text + (read.cut ? cutNote(path, read) : ""), global: true };
    }
  }
  return undefined;
}

/**
 * The project files of one folder that may be read: the `first` of the names that may (the
 * AGENTS.md names), or `all` that may (both CLAUDE.md files). Held-back files are passed over;
 * so are files that are not regular or lead out of the project, each with a warning.
 */
async function projectFilesIn(
  dir: string,
  names: { first: string[] } | { all: string[] },
  ctx: {
    inside: RealRoot;
    roots: InstructionRoots;
    skip: (path: string, problem: string) => void;
  },
): Promise<FoundFile[]> {
  const found: FoundFile[] = [];
  const list = "first" in names ? [...new Set(names.first)] : names.all;
  for (const name of list) {
    const path = join(dir, name);
    if (ctx.roots.isHeldBack?.(path)) continue;
    const check = await checkInstructionFile(path, ctx.inside);
    if (check.kind === "refused") ctx.skip(path, check.problem);
    if (check.kind !== "ok") continue;
    // Read by the real path the check found inside the project.
    found.push({ path, real: check.real });
    if ("first" in names) break;
  }
  return found;
}

/**
 * Reads `paths` in order until `maxBytes` are used: the file that does not fit is cut (at a
 * character boundary) with a note, and the ones after it are left out, each with a note naming
 * it so the model can read it. `over` says what happened to each, for the warning.
 */
async function readWithinBudget(
  found: FoundFile[],
  maxBytes: number,
): Promise<{ files: InstructionFile[]; over: string[] }> {
  const files: InstructionFile[] = [];
  const over: string[] = [];
  let remaining = maxBytes;
  for (const { path, real } of found) {
    if (remaining === 0) {
      files.push({ path, text: leftOutNote(path), global: false });
      over.push(`left out ${path}`);
      continue;
    }
    const read = await readCapped(real, remaining);
    if (!read?.text) continue;
    // A cut file uses up the budget: what a character boundary left over is no use.
    remaining = read.cut ? 0 : remaining - read.used;
    if (!read.cut) {
      files.push({ path, text: read.text, global: false });
      continue;
    }
    files.push({ path, text: read.text + cutNote(path, read), global: false });
    over.push(`cut ${path} to ${read.used} of ${read.size} bytes`);
  }
  return { files, over };
}

interface CappedRead {
  /** The text read, trimmed; "" for an empty file. */
  text: string;
  /** Bytes taken from the file (the budget they use). */
  used: number;
  /** The file's size. */
  size: number;
  cut: boolean;
}

/** At most `maxBytes` of regular file `path`; undefined when it cannot be read. */
async function readCapped(path: string, maxBytes: number): Promise<CappedRead | undefined> {
  const bytes = await readInputFile(path, { what: "file", maxBytes: maxBytes + 1, truncate: true })
    .catch(() => undefined);
  if (!bytes) return undefined;
  const cut = bytes.length > maxBytes;
  const used = cut ? utf8Boundary(bytes, maxBytes) : bytes.length;
  const size = cut ? await Deno.stat(path).then((i) => i.size, () => bytes.length) : used;
  const text = new TextDecoder().decode(bytes.subarray(0, used)).trim();
  return { text, used: text ? used : 0, size, cut };
}

/** The largest length ≤ `at` that does not split a UTF-8 character of `bytes`. */
function utf8Boundary(bytes: Uint8Array, at: number): number {
  let end = at;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return end;
}

function cutNote(path: string, read: CappedRead): string {
  return `\n\n[Cut here: ${path} has ${read.size} bytes and only the first ${read.used} fit ` +
    "in the limit for project instructions. Read the file for the rest.]";
}

function leftOutNote(path: string): string {
  return `[Left out: ${path} is over the limit for project instructions. Read the file for it.]`;
}

/** The folders from `root` (`cwd` or a folder above it) down to `cwd`. */
function foldersDown(cwd: string, root: string): string[] {
  const dirs: string[] = [];
  for (let dir = cwd;; dir = dirname(dir)) {
    dirs.unshift(dir);
    if (dir === root || dirname(dir) === dir) break;
  }
  return dirs;
}

/**
 * How a harness frames each file inside `{{agents_md}}` and `{{claude_md}}` (its
 * `[project_instructions]`): templates with `{path}`, `{relative_path}` (from the working
 * directory) and `{text}`, and what goes between the user's own file and the project's.
 */
export type InstructionFraming = Omit<ProjectInstructions, "slot">;

/** The texts one after another, with nothing around them. */
const PLAIN_FRAMING: InstructionFraming = {
  fileTemplate: "{text}",
  globalTemplate: "{text}",
  globalSeparator: "\n\n",
};

/** The files as one text, each framed as `framing` says, blank lines between them. */
export function instructionsText(
  files: readonly InstructionFile[],
  opts: { cwd: string; framing?: InstructionFraming },
): string {
  const framing = opts.framing ?? PLAIN_FRAMING;
  const frame = (f: InstructionFile) =>
    (f.global ? framing.globalTemplate : framing.fileTemplate).replace(
      /\{(path|relative_path|text)\}/g,
      (_, name: string) =>
        name === "text" ? f.text : name === "path" ? f.path : relative(opts.cwd, f.path),
    );
  const global = files.filter((f) => f.global).map(frame).join("\n\n");
  const project = files.filter((f) => !f.global).map(frame).join("\n\n");
  return global && project ? global + framing.globalSeparator + project : global || project;
}
