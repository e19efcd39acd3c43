/**
 * Agent Skills for the model: the SKILL.md format (`parseSkillFile()`) and the `skill.list` and
 * `skill.load` capabilities. Which skills exist is the workspace's to say (discovery is
 * `lib/workspace/skills.ts`); the tools read them from `TurnContext.skills`.
 */
import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability, type ToolContext } from "./capability.ts";
import { decodeText, fsOf } from "./_fs.ts";
import type { SkillInfo } from "./types.ts";
import type { FileStat, FileSystem } from "../../sandbox/file_system.ts";

export type { SkillInfo, SkillScope } from "./types.ts";

/** File that makes a folder an Agent Skill. */
export const SKILL_FILE = "SKILL.md";

/** Longest SKILL.md read; a longer one is left out (the spec asks for a few hundred lines). */
export const SKILL_MAX_BYTES = 1024 * 1024;

/** A SKILL.md's text, or why it is not read. */
export type SkillText = { text: string } | { problem: string };

/**
 * The text of the SKILL.md at `path` when it is a regular file (through links) of at most
 * `SKILL_MAX_BYTES`, else what it is instead. No more than that is ever read, so a file swapped
 * for `/dev/zero` after the check still ends there. Rejects as `fs` does when it is missing.
 */
export async function readSkillText(fs: FileSystem, path: string): Promise<SkillText> {
  const info = await fs.stat(path);
  if (!info.isFile) return { problem: `it is ${fileKind(info)}, not a regular file` };
  const tooLarge = {
    problem: `it is over the ${SKILL_MAX_BYTES / 1024 / 1024} MiB a SKILL.md may have`,
  };
  if (info.size > SKILL_MAX_BYTES) return tooLarge;
  const bytes = await fs.readFile(path, { offset: 0, length: SKILL_MAX_BYTES + 1 });
  return bytes.length > SKILL_MAX_BYTES ? tooLarge : { text: decodeText(bytes) };
}

/** What a file that is not a regular file is, for a message: "a character device". */
export function fileKind(info: FileStat): string {
  if (info.isDirectory) return "a directory";
  const kinds: Record<number, string> = {
    0o010000: "a FIFO (named pipe)",
    0o020000: "a character device",
    0o060000: "a block device",
    0o140000: "a socket",
  };
  return kinds[(info.mode ?? 0) & 0o170000] ?? "not a file";
}

/** One `- name: description (file: path)` line per skill, for the system prompt; "" for none. */
export function skillsListing(skills: readonly SkillInfo[]): string {
  return skills.map((s) => `- ${s.name}: ${s.description} (file: ${s.path})`).join("\n");
}

/** A SKILL.md split by `parseSkillFile()`. */
export interface SkillFile {
  meta: Record<string, string>;
  body: string;
  /** Set when the front matter is not YAML (then `meta` is empty). */
  invalidYaml?: true;
}

/**
 * The skills as the `<available_skills>` block OpenCode and pi show their models: one `<skill>`
 * with `<name>`, `<description>` and `<location>` (the SKILL.md path) each; "" for none.
 */
export function availableSkills(skills: readonly SkillInfo[]): string {
  if (skills.length === 0) return "";
  const entries = skills.map((s) =>
    `  <skill>\n    <name>${xmlText(s.name)}</name>\n` +
    `    <description>${xmlText(s.description)}</description>\n` +
    `    <location>${xmlText(s.path)}</location>\n  </skill>`
  );
  return `<available_skills>\n${entries.join("\n")}\n</available_skills>`;
}

function xmlText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * Splits a SKILL.md into its YAML front matter and its Markdown body; undefined without front
 * matter. `meta` holds the top-level values that are text, numbers or booleans, as trimmed text
 * (nested maps and lists are left out), and is empty when the front matter is not a YAML map.
 * A plain value holding `: `, which YAML refuses and many published skills have, is read as the
 * rest of its line, as other agents do.
 */
export async function parseSkillFile(text: string): Promise<SkillFile | undefined> {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return undefined;
  const data = plainFrontMatter(m[1]) ?? await yamlData(m[1]) ??
    await yamlData(quotePlainValues(m[1]));
  const meta: Record<string, string> = {};
  if (typeof data === "object" && data !== null && !Array.isArray(data)) {
    for (const [key, value] of Object.entries(data)) {
      if (["string", "number", "boolean"].includes(typeof value)) meta[key] = String(value).trim();
    }
  }
  const body = text.slice(m[0].length).replace(/^\s*\n/, "");
  return data === undefined ? { meta, body, invalidYaml: true } : { meta, body };
}

/** A plain scalar YAML reads as text, not as a number, boolean or null, nor as anything else. */
const PLAIN_TEXT = /^(?![-+.\d]|(?:true|false|null|~)$)[^\s"'|>[\]{}&*!#%@`,?:][^#]*$/i;

/**
 * The front matter as `yamlData()` reads it when each line is `key: text` with a plain value
 * that YAML takes as text (no quotes, lists, numbers, comments or `: `), which most SKILL.md
 * files are; undefined for anything else. It spares loading the YAML parser at start-up.
 */
export function plainFrontMatter(text: string): Record<string, string> | undefined {
  const data: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^([A-Za-z0-9_-]+):[ \t]+(.*?)[ \t]*$/.exec(line);
    if (!m || Object.hasOwn(data, m[1]) || !PLAIN_TEXT.test(m[2]) || m[2].includes(": ")) {
      return undefined;
    }
    data[m[1]] = m[2];
  }
  return data;
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
const skillListInput = z.object({});

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
const skillLoadInput = z.object({
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
    const read = await readSkillText(fsOf(ctx), skill.path);
    if ("problem" in read) {
      throw new ToolError(
        `Cannot load the skill "${skill.name}": ${skill.path}: ${read.problem}`,
        "Make its SKILL.md a regular file of instructions",
      );
    }
    const parsed = await parseSkillFile(read.text);
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

/** The skills the session offers (`TurnContext.skills`); none where it offers no discovery. */
async function contextSkills(ctx: ToolContext): Promise<SkillInfo[]> {
  return ctx.skills ? await ctx.skills() : [];
}
