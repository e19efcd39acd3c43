/**
 * Reads one sub-agent file in its vendor's format (facts in `lib/setups/FORMATS.md`): Markdown
 * with YAML front matter for ours, Claude Code, Qwen Code, Gemini CLI and opencode, TOML for
 * Codex. A file that is not a sub-agent (opencode's primary agents) gives undefined; a bad file
 * is a `ConfigError` naming the file, the line where there is one, and the fix.
 */
import { ConfigError } from "../../errors.ts";
import type { SetupScope, SetupVendor } from "../sources.ts";
import type { AgentDefinition } from "./types.ts";

/** Where an agent file was found. */
export interface AgentFile {
  path: string;
  vendor: SetupVendor;
  scope: Exclude<SetupScope, "builtin">;
  /** Its path under the agents folder without the extension (opencode's agent name). */
  relName: string;
}

/** A name a sub-agent may have: no `:`, no white space, no leading `-` (opencode's has `/`). */
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_./-]{0,63}$/;

/** The definition in `text` (the file `file`), undefined when it defines no sub-agent. */
export async function parseAgentFile(
  text: string,
  file: AgentFile,
): Promise<AgentDefinition | undefined> {
  if (file.vendor === "codex") return await codexAgent(text, file);
  const { meta, body } = await frontMatter(text, file.path);
  if (file.vendor === "opencode") return opencodeAgent(meta, body, file);
  const name = file.vendor === "gemini" || file.vendor === "qwen" || file.vendor === "claude" ||
      file.vendor === "ours"
    ? meta.name
    : undefined;
  const definition: AgentDefinition = {
    ...common(meta, body, file, name),
    ...toolLists(meta, file),
  };
  const mode = text_(meta.permissionMode) ?? text_(meta.approvalMode);
  if (mode === "plan") definition.readOnly = true;
  return definition;
}

/** Name, description, prompt, model and source, checked. */
function common(
  meta: Record<string, unknown>,
  prompt: string,
  file: AgentFile,
  name: unknown,
): AgentDefinition {
  if (typeof name !== "string" || !name.trim()) {
    throw bad(file.path, "has no name", 'Add a line "name: my-agent" to its front matter');
  }
  if (!NAME.test(name.trim())) {
    throw bad(
      file.path,
      `has the name "${name}", which a sub-agent cannot have`,
      "Use letters, digits, '-', '_' and '.' (no ':' or spaces, not starting with '-')",
    );
  }
  const description = text_(meta.description);
  if (!description) {
    throw bad(
      file.path,
      "has no description",
      'Add "description: when to use it" to its front matter',
    );
  }
  const model = text_(meta.model);
  return {
    name: name.trim(),
    scope: file.scope,
    source: file.path,
    vendor: file.vendor,
    description,
    prompt: prompt.trim(),
    ...(model && model !== "inherit" ? { model } : {}),
  };
}

/** `tools` and `disallowedTools` as lists (a comma list, a YAML list, or `*` for all). */
function toolLists(
  meta: Record<string, unknown>,
  file: AgentFile,
): Pick<AgentDefinition, "tools" | "disallowedTools"> {
  const tools = nameList(meta.tools, file.path, "tools");
  const disallowed = nameList(
    meta.disallowedTools ?? meta.disallowed_tools,
    file.path,
    "disallowedTools",
  );
  return {
    ...(tools && !tools.includes("*") ? { tools } : {}),
    ...(disallowed?.length ? { disallowedTools: disallowed } : {}),
  };
}

/** opencode: the name is the file's path; `mode: primary` is no sub-agent; `tools` is a map. */
function opencodeAgent(
  meta: Record<string, unknown>,
  body: string,
  file: AgentFile,
): AgentDefinition | undefined {
  const mode = text_(meta.mode) ?? "all";
  if (mode === "primary" || meta.disable === true) return undefined;
  const definition = common(meta, body, file, file.relName);
  const model = definition.model;
  const denied: string[] = [];
  if (typeof meta.tools === "object" && meta.tools !== null && !Array.isArray(meta.tools)) {
    for (const [tool, on] of Object.entries(meta.tools)) if (on === false) denied.push(tool);
  }
  const permission = meta.permission;
  if (typeof permission === "object" && permission !== null && !Array.isArray(permission)) {
    for (const [tool, action] of Object.entries(permission)) {
      if (action === "deny") denied.push(tool);
    }
  }
  return {
    ...definition,
    ...(model ? { model } : {}),
    ...(denied.length ? { disallowedTools: denied } : {}),
  };
}

/** Codex: one TOML table with `name`, `description` and `developer_instructions`. */
async function codexAgent(text: string, file: AgentFile): Promise<AgentDefinition> {
  const { parse, TomlError } = await import("smol-toml");
  let data: Record<string, unknown>;
  try {
    data = parse(text) as Record<string, unknown>;
  } catch (error) {
    const line = error instanceof TomlError ? `, line ${error.line}` : "";
    throw new ConfigError(`Skipped the sub-agent ${file.path}${line}: it is not valid TOML`, {
      hint: "Fix the file (a missing quote is the usual cause), or remove it",
    });
  }
  const instructions = text_(data.developer_instructions);
  if (!instructions) {
    throw bad(
      file.path,
      "has no developer_instructions",
      'Add developer_instructions = "what the agent does"',
    );
  }
  const definition = common(data, instructions, file, data.name);
  return { ...definition, ...(data.sandbox_mode === "read-only" ? { readOnly: true } : {}) };
}

/** A YAML front matter's map and the body after it. */
async function frontMatter(
  text: string,
  path: string,
): Promise<{ meta: Record<string, unknown>; body: string }> {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) {
    throw bad(
      path,
      "has no front matter",
      "Start it with a --- block holding name and description",
    );
  }
  const { parseDocument } = await import("yaml");
  const doc = parseDocument(m[1], { uniqueKeys: false });
  const error = doc.errors[0];
  if (error) {
    // The front matter starts on the file's second line.
    const line = (error.linePos?.[0].line ?? 0) + 1;
    throw new ConfigError(
      `Skipped the sub-agent ${path}, line ${line}: its front matter is not valid YAML ` +
        `(${error.message.split("\n")[0]})`,
      { hint: "Fix the YAML (quote values that hold ': '), or remove the file" },
    );
  }
  const data = doc.toJS({ maxAliasCount: 50 });
  const meta = typeof data === "object" && data !== null && !Array.isArray(data) ? data : {};
  return { meta, body: text.slice(m[0].length) };
}

/** A list of tool names from a comma (or space) separated string or a YAML list. */
function nameList(value: unknown, path: string, key: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") {
    return value.split(/,(?![^(]*\))/).map((s) => s.trim()).filter(Boolean);
  }
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
    return value.map((v) => v.trim()).filter(Boolean);
  }
  throw bad(
    path,
    `has a ${key} value that is not a list of tool names`,
    `Write ${key}: Read, Grep`,
  );
}

function text_(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

function bad(path: string, problem: string, hint: string): ConfigError {
  return new ConfigError(`Skipped the sub-agent ${path}: it ${problem}`, { hint });
}
