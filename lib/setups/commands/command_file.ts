/**
 * Reads one custom command file: Markdown with optional YAML front matter (Claude Code, Qwen
 * Code, Codex, opencode, ours) or TOML with `prompt` and `description` (Gemini CLI, Qwen Code).
 * A bad file is a `ConfigError` naming the file, the line where there is one, and the fix.
 */
import { parse as parseYaml } from "yaml";
import { parse as parseToml } from "smol-toml";
import { ConfigError } from "../../errors.ts";
import type { SetupScope, SetupVendor } from "../sources.ts";
import type { CommandSyntax, CustomCommand } from "./types.ts";

/** Where a command file was found. */
export interface CommandFileInfo {
  /** The file's absolute path. */
  path: string;
  /** Its path under the commands folder, with `/` separators: `git/oneline.toml`. */
  relative: string;
  vendor: SetupVendor;
  scope: Exclude<SetupScope, "builtin">;
}

/** The command defined by `text`, the content of the file `info` describes. */
export function parseCommandFile(text: string, info: CommandFileInfo): CustomCommand {
  const base = info.relative.replace(/\.(md|toml)$/i, "").split("/").join(":");
  const codex = info.vendor === "codex";
  const common = {
    name: codex ? `prompts:${base}` : base,
    aliases: codex ? [base] : [],
    vendor: info.vendor,
    scope: info.scope,
    source: info.path,
    syntax: syntaxOf(info),
  };
  if (info.relative.toLowerCase().endsWith(".toml")) {
    return { ...common, ...tomlCommand(text, info) };
  }
  return { ...common, ...markdownCommand(text, info) };
}

function syntaxOf(info: CommandFileInfo): CommandSyntax {
  if (info.vendor === "gemini" || info.vendor === "qwen") return "gemini";
  if (info.vendor === "codex" || info.vendor === "opencode") return info.vendor;
  return "claude";
}

type Parsed = Omit<CustomCommand, "name" | "aliases" | "vendor" | "scope" | "source" | "syntax">;

function tomlCommand(text: string, info: CommandFileInfo): Parsed {
  let table: Record<string, unknown>;
  try {
    table = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const line = (error as { line?: number }).line;
    throw new ConfigError(
      `${info.path}${line ? `, line ${line}` : ""} is not valid TOML: ${firstLine(error)}`,
      { hint: 'Fix the file: it needs `prompt = """..."""` and may have `description = "..."`' },
    );
  }
  if (typeof table.prompt !== "string") {
    throw new ConfigError(`${info.path} has no \`prompt\` string`, {
      hint: 'Add `prompt = "..."` with the text to send, or remove the file',
    });
  }
  const description = typeof table.description === "string" ? table.description : undefined;
  const promptLine = text.split("\n").findIndex((l) => /^\s*prompt\s*=/.test(l)) + 1;
  return {
    description,
    argumentNames: [],
    allowedTools: [],
    modelInvocable: description !== undefined,
    body: table.prompt,
    bodyLine: Math.max(promptLine, 1),
  };
}

function markdownCommand(text: string, info: CommandFileInfo): Parsed {
  const { meta, body, bodyLine } = frontMatter(text, info.path);
  const described = str(meta.description) ?? firstParagraph(body, info.vendor);
  const when = str(meta.when_to_use);
  const description = described && when ? `${described} ${when}` : described ?? when;
  const optOut = bool(meta["disable-model-invocation"]);
  return {
    description,
    argumentHint: str(meta["argument-hint"]),
    argumentNames: list(meta.arguments),
    allowedTools: list(meta["allowed-tools"]),
    model: str(meta.model),
    agent: str(meta.agent),
    subtask: meta.subtask === undefined ? undefined : bool(meta.subtask),
    modelInvocable: description !== undefined && !optOut,
    body,
    bodyLine,
  };
}

/** The YAML front matter between `---` lines at the top, the body after it and its first line. */
export function frontMatter(
  text: string,
  path: string,
): { meta: Record<string, unknown>; body: string; bodyLine: number } {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return { meta: {}, body: lines.join("\n"), bodyLine: 1 };
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
  if (end < 0) {
    throw new ConfigError(`${path}, line 1: the front matter has no closing "---" line`, {
      hint: 'End the front matter with a line of "---"',
    });
  }
  let meta: unknown;
  try {
    meta = parseYaml(lines.slice(1, end).join("\n")) ?? {};
  } catch (error) {
    const line = (error as { linePos?: Array<{ line: number }> }).linePos?.[0]?.line;
    throw new ConfigError(
      `${path}${line ? `, line ${line + 1}` : ""}: bad front matter: ${firstLine(error)}`,
      { hint: "Fix the YAML between the --- lines (quote values that hold a colon)" },
    );
  }
  if (typeof meta !== "object" || Array.isArray(meta) || meta === null) {
    throw new ConfigError(`${path}, line 2: the front matter is not a list of keys`, {
      hint: "Write it as `key: value` lines",
    });
  }
  const body = lines.slice(end + 1).join("\n").replace(/^\n+/, "");
  const skipped = lines.slice(end + 1).findIndex((l) => l.trim() !== "");
  return { meta: meta as Record<string, unknown>, body, bodyLine: end + 2 + Math.max(skipped, 0) };
}

/** Claude Code takes the first paragraph when there is no description; others leave it out. */
function firstParagraph(body: string, vendor: SetupVendor): string | undefined {
  if (vendor !== "claude" && vendor !== "ours") return undefined;
  const paragraph = body.trim().split(/\n\s*\n/)[0]?.replace(/\s+/g, " ").trim();
  return paragraph ? paragraph.slice(0, 200) : undefined;
}

function str(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (typeof value === "number") return String(value);
  return undefined;
}

function bool(value: unknown): boolean {
  if (typeof value === "boolean") return value;
  return ["true", "yes", "on", "1"].includes(String(value).trim().toLowerCase());
}

/** A list given as YAML list or as a comma- or space-separated string (`Bash(git *), Read`). */
function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String).map((s) => s.trim()).filter(Boolean);
  if (typeof value !== "string") return [];
  const out: string[] = [];
  let depth = 0;
  let word = "";
  for (const c of value) {
    if (c === "(") depth++;
    if (c === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === "," || /\s/.test(c))) {
      if (word.trim()) out.push(word.trim());
      word = "";
    } else word += c;
  }
  if (word.trim()) out.push(word.trim());
  return out;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}
