/**
 * Instruction files: the AGENTS.md and CLAUDE.md files a session gives the model, found from
 * the user's homes down to the working directory.
 */
import { dirname, join } from "node:path";
import { readTextPrefix } from "../input_file.ts";

/** The kinds of instruction file: AGENTS.md for every harness, CLAUDE.md for Claude's. */
export type InstructionKind = "AGENTS.md" | "CLAUDE.md";

/** One instruction file that holds text: its path and its text, trimmed and capped. */
export interface InstructionFile {
  path: string;
  text: string;
}

/** Where instruction files are looked for. */
export interface InstructionRoots {
  cwd: string;
  /** The repository root; the search stops there (at `cwd` outside a repository). */
  gitRoot: string | undefined;
  /** The interpreter home: `<home>/AGENTS.md`. */
  home: string;
  /** The user's home directory (`$HOME`): `$HOME/.claude/CLAUDE.md`. */
  userHome?: string;
}

/** The most read of one instruction file; the rest is left out. */
const MAX_BYTES = 32 * 1024;

/**
 * The instruction files of `kind` that hold text, in the order the model reads them: AGENTS.md
 * is `<home>/AGENTS.md`, then `AGENTS.md` in each folder from the repository root down to `cwd`;
 * CLAUDE.md is `$HOME/.claude/CLAUDE.md`, then `CLAUDE.md` and `.claude/CLAUDE.md` in each folder
 * from the repository root down. A file that is not a regular file is skipped (`readTextPrefix`).
 */
export async function findInstructions(
  kind: InstructionKind,
  roots: InstructionRoots,
): Promise<InstructionFile[]> {
  const dirs = foldersDown(roots.cwd, roots.gitRoot ?? roots.cwd);
  const files = kind === "AGENTS.md"
    ? [join(roots.home, "AGENTS.md"), ...dirs.map((d) => join(d, "AGENTS.md"))]
    : [
      ...(roots.userHome ? [join(roots.userHome, ".claude", "CLAUDE.md")] : []),
      ...dirs.flatMap((d) => [join(d, "CLAUDE.md"), join(d, ".claude", "CLAUDE.md")]),
    ];
  const found: InstructionFile[] = [];
  for (const path of files) {
    const text = (await readTextPrefix(path, MAX_BYTES)).trim().slice(0, MAX_BYTES);
    if (text) found.push({ path, text });
  }
  return found;
}

/** `{{agents_md}}`: the texts, one after another. */
export function agentsMdText(files: readonly InstructionFile[]): string {
  return files.map((f) => f.text).join("\n\n");
}

/** `{{claude_md}}`: each text under a line naming its file. */
export function claudeMdText(files: readonly InstructionFile[]): string {
  return files.map((f) => `Instructions in ${f.path}:\n\n${f.text}`).join("\n\n");
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
