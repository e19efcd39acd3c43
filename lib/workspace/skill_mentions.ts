/**
 * Explicit skill mentions, as Codex reads them: `$name` or `[$name](path to SKILL.md)` in the
 * user's message puts that skill's whole SKILL.md into the conversation as a user message
 * `<skill>\n<name>…</name>\n<path>…</path>\n…\n</skill>` right after the prompt
 * (interfaces.md §8.2). Mentions inside Markdown code (`` `$x` ``, fenced blocks) are examples,
 * not mentions; names of common environment variables (`$HOME`, `$PATH`) never are.
 */
import type { Block, Message } from "../model/message.ts";
import { readSkillText, type SkillInfo } from "../tools/skills.ts";
import type { FileSystem } from "../../sandbox/file_system.ts";

/** What a message mentions: names, and the paths of linked mentions. */
export interface SkillMentions {
  names: Set<string>;
  paths: Set<string>;
}

/** The `$name` (letters, digits, `_`, `-`) and `[$name](path)` mentions in `text`. */
export function skillMentions(text: string): SkillMentions {
  const names = new Set<string>();
  const paths = new Set<string>();
  const prose = withoutCode(text);
  const mention = /\[\$([\w-]+)\]\s*\(([^)]*)\)|\$([\w-]+)/g;
  for (const m of prose.matchAll(mention)) {
    const name = m[1] ?? m[3];
    if (ENV_NAMES.has(name.toUpperCase())) continue;
    names.add(name);
    const path = m[2]?.trim().replace(/^skill:\/\//, "");
    if (path) paths.add(path);
  }
  return { names, paths };
}

/** Names taken for environment variables, not skills (as Codex skips them). */
const ENV_NAMES = new Set([
  "PATH",
  "HOME",
  "USER",
  "SHELL",
  "PWD",
  "TMPDIR",
  "TEMP",
  "TMP",
  "LANG",
  "TERM",
  "XDG_CONFIG_HOME",
]);

/** `text` without its fenced code blocks and inline code spans. */
function withoutCode(text: string): string {
  const prose: string[] = [];
  let fence = "";
  for (const line of text.split("\n")) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (!fence && marker) fence = marker;
    else if (fence && marker?.[0] === fence[0] && marker.length >= fence.length) fence = "";
    else if (!fence) prose.push(line);
  }
  return prose.join("\n").replace(/(`+)[\s\S]*?\1/g, "");
}

/**
 * The skills `text` mentions, in the order of `skills`: those a linked mention names by path
 * first, then those named by `$name`, each once.
 */
export function mentionedSkills(text: string, skills: readonly SkillInfo[]): SkillInfo[] {
  if (!text.includes("$")) return [];
  const { names, paths } = skillMentions(text);
  const byPath = skills.filter((s) => paths.has(s.path) || paths.has(s.dir));
  const taken = new Set(byPath.map((s) => s.name));
  const byName = skills.filter((s) => names.has(s.name) && !taken.has(s.name));
  return [...byPath, ...byName];
}

/** One `<skill>` user message as Codex injects it: name, SKILL.md path, the whole file. */
function skillMessage(skill: SkillInfo, contents: string): Message {
  const text = `<skill>\n<name>${skill.name}</name>\n<path>${skill.path}</path>\n` +
    `${contents.trimEnd()}\n</skill>`;
  return { role: "user", blocks: [{ type: "text", text }] };
}

/**
 * The `<skill>` messages for the skills the user's `prompt` mentions, read through `fs`; a
 * SKILL.md that cannot be read is left out and `warn` says so.
 */
export async function skillMessages(
  prompt: string | Block[],
  opts: { skills: () => Promise<SkillInfo[]>; fs: FileSystem; warn(message: string): void },
): Promise<Message[]> {
  const text = typeof prompt === "string"
    ? prompt
    : prompt.map((b) => b.type === "text" && !b.context ? b.text : "").join("\n");
  if (!text.includes("$")) return [];
  const messages: Message[] = [];
  for (const skill of mentionedSkills(text, await opts.skills())) {
    try {
      const read = await readSkillText(opts.fs, skill.path);
      if ("text" in read) messages.push(skillMessage(skill, read.text));
      else opts.warn(`Cannot load the skill ${skill.name} from ${skill.path}: ${read.problem}`);
    } catch (error) {
      opts.warn(`Cannot load the skill ${skill.name} from ${skill.path}: ${String(error)}`);
    }
  }
  return messages;
}
