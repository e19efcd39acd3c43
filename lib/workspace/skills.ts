/**
 * Skills discovery: which Agent Skills a workspace offers. The skill file format (front matter,
 * `SkillInfo`) and the tools that list and load skills for the model live in
 * `lib/tools/skills.ts`; the session hands the tools this discovery through `TurnContext.skills`.
 */
import { dirname, join } from "node:path";
import { isWithin } from "./_file_checks.ts";
import {
  parseSkillFile,
  readSkillText,
  SKILL_FILE,
  type SkillInfo,
  type SkillScope,
} from "../tools/skills.ts";
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
  /** `project_root_markers`, as AGENTS.md discovery uses them; default `[".git"]`. */
  rootMarkers?: readonly string[];
}

/** What `discoverSkills()` found. */
export interface SkillDiscovery {
  /** The skills that load, sorted by name. */
  skills: SkillInfo[];
  /** One line per SKILL.md left out (naming the file and the problem) and per name clash. */
  warnings: string[];
}

/**
 * Finds Agent Skills (folders holding SKILL.md with `name` and `description` front matter), by
 * precedence: `.agents/skills` in each folder from `cwd` up to the project root (the nearest
 * folder holding one of `rootMarkers`, default `.git`; only `cwd` without one), the project root's `.codex/skills`, the user's
 * `$HOME/.agents/skills`, `<home>/skills`, then bundled `<home>/skills/.system`. The first skill
 * of a name wins, and a warning says which one won; a SKILL.md whose front matter breaks the
 * rules (`skillProblem()`), that is not a regular file of at most `SKILL_MAX_BYTES`, or that is
 * a project's and resolves outside the project root, is left out with a warning; held-back ones
 * are left out silently.
 */
export async function discoverSkills(cwd: string, opts: SkillRoots): Promise<SkillDiscovery> {
  const found = new Map<string, SkillInfo>();
  const warnings: string[] = [];
  const root = await projectRoot(opts.fs, cwd, opts.rootMarkers ?? [".git"]);
  const walk: SkillWalk = { fs: opts.fs, root, realRoot: await realPathOf(opts.fs, root) };
  for (const [dir, scope] of skillRoots(cwd, root, opts)) {
    for (const skill of await skillsUnder(walk, dir, scope)) {
      if (opts.isHeldBack?.(skill.path)) continue;
      if ("problem" in skill) {
        warnings.push(`Skipped the skill ${skill.path}: ${skill.problem}`);
        continue;
      }
      const winner = found.get(skill.name);
      if (!winner) found.set(skill.name, skill);
      else {
        warnings.push(
          `Skill "${skill.name}": ${winner.path} (${winner.scope}) wins over ` +
            `${skill.path} (${skill.scope})`,
        );
      }
    }
  }
  const skills = [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { skills, warnings };
}

/** Longest skill name. */
const NAME_MAX = 64;
/** Longest description. */
const DESCRIPTION_MAX = 1024;
/** Longest `compatibility` note. */
const COMPATIBILITY_MAX = 500;

/**
 * What is wrong with a SKILL.md's front matter by the Agent Skills rules, or undefined: `name`
 * of at most 64 lowercase letters, digits and hyphens (none first, last or doubled),
 * `description` not empty and at most 1024 characters, `compatibility` at most 500.
 */
export function skillProblem(meta: Record<string, string>): string | undefined {
  const { name, description, compatibility } = meta;
  if (!name) return "its front matter has no name";
  if ([...name].length > NAME_MAX) {
    return `the name "${name}" is longer than ${NAME_MAX} characters`;
  }
  if (!/^[\p{Ll}\p{Nd}]+(-[\p{Ll}\p{Nd}]+)*$/u.test(name)) {
    return `the name "${name}" may hold only lowercase letters, digits and single hyphens ` +
      "between them";
  }
  if (!description) return "its front matter has no description";
  const length = [...description].length;
  if (length > DESCRIPTION_MAX) {
    return `the description is ${length} characters long, over the ${DESCRIPTION_MAX} allowed`;
  }
  if (compatibility && [...compatibility].length > COMPATIBILITY_MAX) {
    return `compatibility is longer than ${COMPATIBILITY_MAX} characters`;
  }
  return undefined;
}

/** The folders skills are searched in, by precedence. */
function skillRoots(cwd: string, root: string, opts: SkillRoots): Array<[string, SkillScope]> {
  const roots: Array<[string, SkillScope]> = [];
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
  // Working in the home folder makes its `.agents/skills` both the repo's and the user's.
  return roots.filter(([dir], i) => roots.findIndex(([other]) => other === dir) === i);
}

/** A SKILL.md that does not load, and why. */
interface BadSkill {
  path: string;
  problem: string;
}

/** What one discovery reads with: the file system and the project root (also as a real path). */
interface SkillWalk {
  fs: FileSystem;
  root: string;
  /** The project root's real path; undefined when it cannot be resolved. */
  realRoot: string | undefined;
}

/** Skill folders below `root`, breadth first, not descending into a skill or a dot folder. */
async function skillsUnder(
  walk: SkillWalk,
  root: string,
  scope: SkillScope,
): Promise<Array<SkillInfo | BadSkill>> {
  const { fs } = walk;
  const skills: Array<SkillInfo | BadSkill> = [];
  let level = [root];
  let visited = 0;
  for (let depth = 0; depth <= MAX_DEPTH && level.length; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (++visited > MAX_DIRS) return skills;
      const skill = await readSkill(walk, dir, scope);
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

/** The skill of folder `dir`; undefined when it holds no SKILL.md (or one that cannot be read). */
async function readSkill(
  walk: SkillWalk,
  dir: string,
  scope: SkillScope,
): Promise<SkillInfo | BadSkill | undefined> {
  const path = join(dir, SKILL_FILE);
  const read = await readSkillText(walk.fs, path).catch(() => undefined);
  if (read === undefined) return undefined;
  if ("problem" in read) return { path, problem: read.problem };
  const outside = scope === "repo" ? await outsideRoot(walk, path) : undefined;
  if (outside) return { path, problem: outside };
  const parsed = await parseSkillFile(read.text);
  if (!parsed) return { path, problem: "it does not start with --- front matter ---" };
  if (parsed.invalidYaml) return { path, problem: "its front matter is not valid YAML" };
  const problem = skillProblem(parsed.meta);
  if (problem) return { path, problem };
  return { name: parsed.meta.name, description: parsed.meta.description, path, dir, scope };
}

async function listDir(fs: FileSystem, dir: string): Promise<DirEntry[]> {
  try {
    return await fs.readDir(dir);
  } catch {
    return [];
  }
}

/**
 * Why a project's SKILL.md at `path` is not read: it resolves (a link, or a linked folder on
 * the way) outside the project root. Undefined when it lies inside.
 */
async function outsideRoot(walk: SkillWalk, path: string): Promise<string | undefined> {
  const real = await realPathOf(walk.fs, path);
  if (real !== undefined && walk.realRoot !== undefined && isWithin(real, walk.realRoot)) {
    return undefined;
  }
  return `it leads through a link to ${real ?? "a path that cannot be resolved"}, outside ` +
    `the project ${walk.root}`;
}

async function realPathOf(fs: FileSystem, path: string): Promise<string | undefined> {
  return await fs.realPath(path).catch(() => undefined);
}

/** The nearest folder up from `cwd` holding one of `markers`, as `fs` sees it; else `cwd`. */
async function projectRoot(
  fs: FileSystem,
  cwd: string,
  markers: readonly string[],
): Promise<string> {
  if (markers.length === 0) return cwd;
  for (let dir = cwd;; dir = dirname(dir)) {
    for (const marker of markers) {
      if (await fs.stat(join(dir, marker)).catch(() => undefined)) return dir;
    }
    if (dirname(dir) === dir) return cwd;
  }
}
