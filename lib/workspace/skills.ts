/**
 * Skills discovery: which Agent Skills a workspace offers. The skill file format (front matter,
 * `SkillInfo`) and the tools that list and load skills for the model live in
 * `lib/tools/skills.ts`; the session hands the tools this discovery through `TurnContext.skills`.
 */
import { dirname, join } from "node:path";
import { parseSkillFile, SKILL_FILE, type SkillInfo, type SkillScope } from "../tools/skills.ts";
import type { DirEntry, FileSystem } from "../../sandbox/file_system.ts";

/** Folder levels searched below each root. */
const MAX_DEPTH = 6;
/** Folders visited at most per root. */
const MAX_DIRS = 2000;

/** Where `discoverSkills()` looks, besides the working directory. */
export interface SkillRoots {
  /** The interpreter home: `<home>/skills` and the bundled `<home>/skills/.system`. */
  home?: string;
  /** The user's home directory (`$HOME`): `$HOME/.agents/skills`. */
  userHome?: string;
  /** Lists folders and reads SKILL.md files. */
  fs: FileSystem;
  /** True for a SKILL.md that is held back (it changed while an earlier session ran). */
  isHeldBack?: (path: string) => boolean;
}

/**
 * Finds Agent Skills (folders holding SKILL.md with `name` and `description` front matter), by
 * precedence: `.agents/skills` in each folder from `cwd` up to the project root (the nearest
 * `.git`; only `cwd` without one), the project root's `.codex/skills`, the user's
 * `$HOME/.agents/skills`, `<home>/skills`, then bundled `<home>/skills/.system`. The first skill
 * of a name wins; invalid and held-back SKILL.md files are skipped. Sorted by name.
 */
export async function discoverSkills(cwd: string, opts: SkillRoots): Promise<SkillInfo[]> {
  const found = new Map<string, SkillInfo>();
  for (const [dir, scope] of await skillRoots(cwd, opts)) {
    for (const skill of await skillsUnder(opts.fs, dir, scope)) {
      if (opts.isHeldBack?.(skill.path)) continue;
      if (!found.has(skill.name)) found.set(skill.name, skill);
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The folders skills are searched in, by precedence. */
async function skillRoots(cwd: string, opts: SkillRoots): Promise<Array<[string, SkillScope]>> {
  const roots: Array<[string, SkillScope]> = [];
  const root = await projectRoot(opts.fs, cwd);
  for (let dir = cwd;; dir = dirname(dir)) {
    roots.push([join(dir, ".agents", "skills"), "repo"]);
    if (dir === root || dirname(dir) === dir) break;
  }
  roots.push([join(root, ".codex", "skills"), "repo"]);
  if (opts.userHome) roots.push([join(opts.userHome, ".agents", "skills"), "user"]);
  if (opts.home) {
    roots.push([join(opts.home, "skills"), "user"]);
    roots.push([join(opts.home, "skills", ".system"), "system"]);
  }
  return roots;
}

/** Skill folders below `root`, breadth first, not descending into a skill or a dot folder. */
async function skillsUnder(
  fs: FileSystem,
  root: string,
  scope: SkillScope,
): Promise<SkillInfo[]> {
  const skills: SkillInfo[] = [];
  let level = [root];
  let visited = 0;
  for (let depth = 0; depth <= MAX_DEPTH && level.length; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (++visited > MAX_DIRS) return skills;
      const skill = await readSkill(fs, dir, scope);
      if (skill) {
        skills.push(skill);
        continue;
      }
      for (const entry of await listDir(fs, dir)) {
        if (entry.isDirectory && !entry.name.startsWith(".") && entry.name !== "node_modules") {
          next.push(join(dir, entry.name));
        }
      }
    }
    level = next.sort();
  }
  return skills;
}

async function readSkill(
  fs: FileSystem,
  dir: string,
  scope: SkillScope,
): Promise<SkillInfo | undefined> {
  const path = join(dir, SKILL_FILE);
  const text = await fs.readFile(path).then(
    (bytes) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes),
    () => undefined,
  );
  if (text === undefined) return undefined;
  const meta = (await parseSkillFile(text))?.meta;
  if (!meta?.name || !meta.description) return undefined;
  return { name: meta.name, description: meta.description, path, dir, scope };
}

async function listDir(fs: FileSystem, dir: string): Promise<DirEntry[]> {
  try {
    return await fs.readDir(dir);
  } catch {
    return [];
  }
}

/** The nearest folder up from `cwd` holding `.git`, as `fs` sees it; else `cwd`. */
async function projectRoot(fs: FileSystem, cwd: string): Promise<string> {
  for (let dir = cwd;; dir = dirname(dir)) {
    if (await fs.stat(join(dir, ".git")).catch(() => undefined)) return dir;
    if (dirname(dir) === dir) return cwd;
  }
}
