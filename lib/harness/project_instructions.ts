/**
 * `[project_instructions]` in `harness.toml`: where the harness's vendor puts project instructions
 * (AGENTS.md, and CLAUDE.md where a template has `{{claude_md}}`) and how it frames each file.
 * `slot` is `inline` (the system prompt or a `[[context]]` entry places `{{agents_md}}` itself), a
 * context slot (the block in `file` or `text` goes first among that slot's entries: Codex's user
 * message before `<environment_context>`, Claude Code's reminder at the front of the first
 * prompt), or `none` (the vendor reads none: no template may use them). Checked when the harness
 * loads, so instructions can never be sent twice or silently dropped.
 */
import { resolve } from "node:path";
import * as z from "zod";
import { HarnessError } from "../errors.ts";
import { checkPromptTemplate } from "./prompt.ts";
import type { ContextEntry, ContextSlot, ProjectInstructions, PromptVars } from "./types.ts";

const FRAME_PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const FRAME_NAMES = ["path", "relative_path", "text"];

const frameTemplate = z.string().min(1).superRefine((template, ctx) => {
  for (const m of template.matchAll(FRAME_PLACEHOLDER)) {
    if (FRAME_NAMES.includes(m[1])) continue;
    ctx.addIssue({
      code: "custom",
      message: `unknown placeholder {${m[1]}}: use {path}, {relative_path} or {text}`,
    });
  }
  if (!template.includes("{text}")) {
    ctx.addIssue({ code: "custom", message: "must contain {text}, where the file's text goes" });
  }
});

/** The slots project instructions can go to: once, at the start of a conversation. */
const SLOTS = ["system", "developer", "user_item", "first_user", "system_message"] as const;

/** Schema of `[project_instructions]` (see the module comment). */
export const projectInstructionsSchema = z.strictObject({
  /** `inline`, `none`, or the context slot the block goes to. */
  slot: z.enum(["inline", "none", ...SLOTS]),
  /** For a slot: the block, a Markdown file (relative to the spec's folder) with `{{agents_md}}`. */
  file: z.string().min(1).optional(),
  /** The block inline, instead of `file`. */
  text: z.string().min(1).optional(),
  /** For a slot: join the block to the entry before it, as `same_part` does for `[[context]]`. */
  same_part: z.boolean().default(false),
  /** Each project file inside `{{agents_md}}`: `{path}`, `{relative_path}`, `{text}`. */
  file_template: frameTemplate.default("{text}"),
  /** The user's own file (`~/.openinterpreter/AGENTS.md`); default `file_template`. */
  global_template: frameTemplate.optional(),
  /** Between the user's own file and the project's files; default a blank line. */
  global_separator: z.string().min(1).default("\n\n"),
  /**
   * The vendor's own instruction files read into `{{agents_md}}` with AGENTS.md (Qwen Code reads
   * QWEN.md and AGENTS.md), each folder's before its AGENTS.md.
   */
  vendor_files: z.array(z.enum(["QWEN.md"])).optional(),
});

const INSTRUCTION_VARIABLE = /\{\{\s*(agents_md|claude_md|gemini_md)\s*\}\}/g;

/** The instruction variables `text` uses, as prompt variable fields. */
function instructionVariables(text: string): Array<keyof PromptVars> {
  const names = new Set([...text.matchAll(INSTRUCTION_VARIABLE)].map((m) => m[1]));
  const fields = { agents_md: "agentsMd", claude_md: "claudeMd", gemini_md: "geminiMd" } as const;
  return [...names].map((n) => fields[n as keyof typeof fields]);
}

/**
 * The spec's `[project_instructions]` checked against the context layout (`context[0]` is the
 * system prompt), and the layout with the block added where `slot` says. Absent: inline, plain.
 */
export async function loadProjectInstructions(
  spec: z.infer<typeof projectInstructionsSchema> | undefined,
  opts: {
    dir: string;
    context: ContextEntry[];
    at: (key: string) => string;
    readText: (path: string, where: string) => Promise<string>;
  },
): Promise<{ projectInstructions?: ProjectInstructions; context: ContextEntry[] }> {
  const { context, at } = opts;
  if (!spec) return { context };
  const projectInstructions: ProjectInstructions = {
    slot: spec.slot,
    fileTemplate: spec.file_template,
    globalTemplate: spec.global_template ?? spec.file_template,
    globalSeparator: spec.global_separator,
    ...(spec.vendor_files?.length ? { vendorFiles: spec.vendor_files } : {}),
  };
  const where = at("project_instructions");
  const using = context.filter((e) => instructionVariables(e.text).length > 0);
  if (spec.slot === "inline" || spec.slot === "none") {
    if (spec.file !== undefined || spec.text !== undefined) {
      throw new HarnessError(`${where}: file and text are for a slot, not "${spec.slot}"`, {
        hint: 'Set slot to the context slot the block goes to, or remove "file" and "text"',
      });
    }
    checkInlineOrNone(spec.slot, using.length > 0, where);
    return { projectInstructions, context };
  }
  if (using.length > 0) {
    throw new HarnessError(
      `${where}: the system prompt or a [[context]] entry uses {{agents_md}}`,
      {
        hint: `Take {{agents_md}} and {{claude_md}} out of them: with slot = "${spec.slot}" the ` +
          "block in [project_instructions] places them",
      },
    );
  }
  const entry = await blockEntry(spec, { ...opts, slot: spec.slot, where });
  return { projectInstructions, context: withEntryFirstInSlot(context, entry) };
}

function checkInlineOrNone(slot: "inline" | "none", used: boolean, where: string): void {
  if (slot === "inline" && !used) {
    throw new HarnessError(`${where}: slot is "inline" but no template uses {{agents_md}}`, {
      hint: "Put {{agents_md}} where the vendor puts project instructions, or set another slot",
    });
  }
  if (slot === "none" && used) {
    throw new HarnessError(`${where}: slot is "none" but a template uses {{agents_md}}`, {
      hint: 'Take {{agents_md}} and {{claude_md}} out, or set slot = "inline"',
    });
  }
}

/** The block of a slot placement, read and checked, left out while its variables are empty. */
async function blockEntry(
  spec: z.infer<typeof projectInstructionsSchema>,
  opts: {
    dir: string;
    slot: ContextSlot;
    where: string;
    readText: (path: string, where: string) => Promise<string>;
  },
): Promise<ContextEntry> {
  if ((spec.file === undefined) === (spec.text === undefined)) {
    throw new HarnessError(`${opts.where}: set exactly one of file or text`, {
      hint: "Give the block that holds {{agents_md}} as a file or inline text",
    });
  }
  const file = spec.file ? resolve(opts.dir, spec.file) : undefined;
  const text = file ? await opts.readText(file, `${opts.where}.file`) : spec.text!;
  checkPromptTemplate(text, file ?? opts.where, "project instructions block");
  const when = instructionVariables(text);
  if (!when.includes("agentsMd")) {
    throw new HarnessError(`${opts.where}: the block does not use {{agents_md}}`, {
      hint: "Put {{agents_md}} where the instruction files' text goes",
    });
  }
  return { slot: opts.slot, text, cache: false, samePart: spec.same_part, when };
}

/** `context` with `entry` before the first `[[context]]` entry of its slot, else at the end. */
function withEntryFirstInSlot(context: ContextEntry[], entry: ContextEntry): ContextEntry[] {
  const at = context.findIndex((e, i) => i > 0 && e.slot === entry.slot);
  return at < 0 ? [...context, entry] : [...context.slice(0, at), entry, ...context.slice(at)];
}
