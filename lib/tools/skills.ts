import { dirname, join } from "node:path";
import { z } from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability, type ToolContext } from "./capability.ts";
import { decodeText, fsOf } from "./_fs.ts";
import type { DirEntry, FileSystem } from "../../sandbox/file_system.ts";

/** File that makes a folder an Agent Skill. */
export const SKILL_FILE = "SKILL.md";
/** Folder levels searched below each root. */
const MAX_DEPTH = 6;
/** Folders visited at most per root. */
const MAX_DIRS = 2000;

/** Where a skill was found; earlier scopes win a name clash. */
export type SkillScope = "repo" | "user" | "system";

/** A discovered skill: its front matter and where it lives. */
export interface SkillInfo {
  name: string;
  description: string;
  /** Absolute path of the skill's SKILL.md. */
  path: string;
  /** Absolute path of the skill folder; relative paths in the body resolve against it. */
  dir: string;
  scope: SkillScope;
}

/**
 * Finds Agent Skills (folders holding SKILL.md with `name` and `description` front matter), by
 * precedence: `.agents/skills` in each folder from `cwd` up to the project root (the nearest
 * `.git`; only `cwd` without one), the project root's `.codex/skills`, the user's
 * `$HOME/.agents/skills` (`opts.userHome`), `<home>/skills`, then bundled `<home>/skills/.system`.
 * The first skill of a name wins; invalid SKILL.md files are skipped. Sorted by name. Folders
 * are listed and files read through `opts.fs`.
 */
export async function discoverSkills(
  cwd: string,
  home: string | undefined,
  opts: {
    userHome?: string;
    fs: FileSystem;
    /** True for a SKILL.md that is held back (it changed while an earlier session ran). */
    isHeldBack?: (path: string) => boolean;
  },
): Promise<SkillInfo[]> {
  const fs = opts.fs;
  const roots: Array<[string, SkillScope]> = [];
  const root = await projectRoot(fs, cwd);
  for (let dir = cwd;; dir = dirname(dir)) {
    roots.push([join(dir, ".agents", "skills"), "repo"]);
    if (dir === root || dirname(dir) === dir) break;
  }
  roots.push([join(root, ".codex", "skills"), "repo"]);
  if (opts.userHome) roots.push([join(opts.userHome, ".agents", "skills"), "user"]);
  if (home) {
    roots.push([join(home, "skills"), "user"]);
    roots.push([join(home, "skills", ".system"), "system"]);
  }
  const found = new Map<string, SkillInfo>();
  for (const [dir, scope] of roots) {
    for (const skill of await skillsUnder(fs, dir, scope)) {
      if (opts.isHeldBack?.(skill.path)) continue;
      if (!found.has(skill.name)) found.set(skill.name, skill);
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** One `- name: description (file: path)` line per skill, for the system prompt; "" for none. */
export function skillsListing(skills: readonly SkillInfo[]): string {
  return skills.map((s) => `- ${s.name}: ${s.description} (file: ${s.path})`).join("\n");
}

/**
 * Splits a SKILL.md into its YAML front matter and its Markdown body; undefined without front
 * matter. `meta` holds the top-level values that are text, numbers or booleans, as trimmed text
 * (nested maps and lists are left out), and is empty when the front matter is not a YAML map.
 * A plain value holding `: `, which YAML refuses and many published skills have, is read as the
 * rest of its line, as other agents do.
 */
export async function parseSkillFile(
  text: string,
): Promise<{ meta: Record<string, string>; body: string } | undefined> {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return undefined;
  const data = await yamlData(m[1]) ?? await yamlData(quotePlainValues(m[1]));
  const meta: Record<string, string> = {};
  if (typeof data === "object" && data !== null && !Array.isArray(data)) {
    for (const [key, value] of Object.entries(data)) {
      if (["string", "number", "boolean"].includes(typeof value)) meta[key] = String(value).trim();
    }
  }
  return { meta, body: text.slice(m[0].length).replace(/^\s*\n/, "") };
}

/** The value of a YAML document; undefined when it has errors or too many aliases. */
async function yamlData(text: string): Promise<unknown> {
  const { parseDocument } = await import("yaml"); // loaded on first use, not at start-up
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) return undefined;
  try {
    return doc.toJS();
  } catch {
    return undefined;
  }
}

/** Top-level `key: value` lines with a plain value rewritten as a quoted (JSON) YAML string. */
function quotePlainValues(yaml: string): string {
  return yaml.replace(
    /^([A-Za-z0-9_-]+):[ \t]+([^\s"'|>[{&*!#%@`].*?)(?:[ \t]+#.*)?[ \t]*$/gm,
    (_, key: string, value: string) => `${key}: ${JSON.stringify(value)}`,
  );
}

/** Input of `skill.list`: no arguments. */
export const skillListInput = z.object({});

/** Result of `skill.list`; `listing` is `skillsListing()` of `skills`. */
export interface SkillListOutput {
  skills: SkillInfo[];
  listing: string;
}

/** Lists the Agent Skills available in this workspace. */
export const skillList = defineCapability({
  id: "skill.list",
  input: skillListInput,
  mutates: false,
  async run(_input, ctx): Promise<SkillListOutput> {
    const skills = await contextSkills(ctx);
    return { skills, listing: skillsListing(skills) };
  },
});

/**
 * Input of `skill.load`. Harness mapping: Claude/Qwen `Skill` {skill → name, args}; opencode
 * `skill` {name}; Gemini `activate_skill` {name}. A leading `$` or `/` on the name is ignored.
 */
export const skillLoadInput = z.object({
  name: z.string().min(1).describe("Skill name, as listed"),
  args: z.string().optional()
    .describe("Arguments: replace `$ARGUMENTS` in the body, or are appended after it"),
});

/** Result of `skill.load`. */
export interface SkillLoadOutput {
  name: string;
  description: string;
  /** Absolute path of the skill folder. */
  dir: string;
  path: string;
  /** SKILL.md without its front matter, with the arguments applied. */
  body: string;
  args: string | undefined;
}

/** Loads a skill's instructions (its SKILL.md body) and folder by name. */
export const skillLoad = defineCapability({
  id: "skill.load",
  input: skillLoadInput,
  mutates: false,
  async run(input, ctx): Promise<SkillLoadOutput> {
    const name = input.name.trim().replace(/^[$/]/, "");
    const skills = await contextSkills(ctx);
    const skill = skills.find((s) => s.name === name);
    if (!skill) {
      throw new ToolError(
        `Unknown skill "${input.name}"`,
        skills.length
          ? `Available skills: ${skills.map((s) => s.name).join(", ")}`
          : "No skills are installed; a skill is a folder with SKILL.md under .agents/skills",
      );
    }
    const parsed = await parseSkillFile(decodeText(await fsOf(ctx).readFile(skill.path)));
    let body = (parsed?.body ?? "").trimEnd();
    if (input.args !== undefined && input.args.trim() !== "") {
      body = body.includes("$ARGUMENTS")
        ? body.replaceAll("$ARGUMENTS", input.args)
        : `${body}\n\nARGUMENTS: ${input.args}`;
    }
    const { scope: _scope, ...info } = skill;
    return { ...info, body, args: input.args };
  },
});

function contextSkills(ctx: ToolContext): Promise<SkillInfo[]> {
  return discoverSkills(ctx.cwd, ctx.home, {
    userHome: ctx.env.HOME,
    fs: fsOf(ctx),
    isHeldBack: ctx.isHeldBack,
  });
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
  const text = await fs.readFile(path).then(decodeText, () => undefined);
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

async function projectRoot(fs: FileSystem, cwd: string): Promise<string> {
  for (let dir = cwd;; dir = dirname(dir)) {
    if (await fs.stat(join(dir, ".git")).catch(() => undefined)) return dir;
    if (dirname(dir) === dir) return cwd;
  }
}
