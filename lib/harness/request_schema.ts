/**
 * `[request.<wire>]` and `[[context]]` in `harness.toml`: what a harness sends besides the
 * conversation, and where each piece of context goes. The README's "Harnesses" section is the
 * user's guide to both.
 */
import { resolve } from "node:path";
import * as z from "zod";
import { HarnessError } from "../errors.ts";
import {
  isHeaderValue,
  REQUEST_PLACEHOLDERS,
  type RequestSpecs,
  type WireRequestSpec,
} from "../model/request_settings.ts";
import { globProblem, globRegExp } from "./_glob.ts";
import { checkPromptTemplate, PROMPT_VARIABLES } from "./prompt.ts";
import type { ContextEntry, ContextSlot } from "./types.ts";

const glob = z.string().superRefine((pattern, ctx) => {
  const problem = globProblem(pattern);
  if (problem) ctx.addIssue({ code: "custom", message: `bad pattern: ${problem}` });
});
const effort = z.enum(["minimal", "low", "medium", "high", "xhigh"]);
const json = z.record(z.string(), z.unknown());
/** A header value: printable text, no line breaks (they would end the header), known placeholders. */
const headerValue = z.string().refine(isHeaderValue, {
  message: "a header value cannot hold line breaks or control characters",
}).superRefine((value, ctx) => {
  for (const [, name] of value.matchAll(/\{([a-z_]+)\}/g)) {
    if (Object.hasOwn(REQUEST_PLACEHOLDERS, name)) continue;
    const known = Object.keys(REQUEST_PLACEHOLDERS).map((k) => `{${k}}`).join(", ");
    ctx.addIssue({ code: "custom", message: `unknown placeholder {${name}}: use ${known}` });
  }
});
const headerMap = z.record(z.string().regex(/^[A-Za-z0-9-]+$/, "use a header name"), headerValue);

/** Every key is optional: an unset key is not sent. */
export const wireSettingsShape = {
  max_output_tokens: z.int().positive().optional(),
  max_tokens_field: z.enum(["max_tokens", "max_completion_tokens"]).optional(),
  text_parts: z.boolean().optional(),
  split_assistant: z.boolean().optional(),
  thinking: z.enum(["adaptive", "budget", "off"]).optional(),
  thinking_display: z.enum(["omitted", "summarized"]).optional(),
  thinking_budget: z.enum(["by_effort", "max"]).optional(),
  effort: z.enum(["minimal", "low", "medium", "high", "xhigh", "none"]).optional(),
  effort_map: z.partialRecord(effort, z.string().min(1)).optional(),
  reasoning: z.boolean().optional(),
  reasoning_summary: z.enum(["auto", "concise", "detailed", "none"]).optional(),
  include: z.array(z.string().min(1)).optional(),
  store: z.boolean().optional(),
  tool_choice: z.union([z.string().min(1), json]).optional(),
  parallel_tool_calls: z.boolean().optional(),
  prompt_cache_key: z.string().min(1).optional(),
  cache: z.array(z.enum(["last_tool", "last_message"])).optional(),
  tool_fields: json.optional(),
  betas: z.array(z.string().min(1)).optional(),
  headers: headerMap.optional(),
  user_agent: headerValue.min(1).optional(),
  body: json.optional(),
  thinking_body: json.optional(),
  tools_item: z.literal("additional_tools").optional(),
  tool_namespaces: z.array(z.strictObject({ name: z.string().min(1), description: z.string() }))
    .optional(),
  reasoning_context: z.string().min(1).optional(),
  verbosity: z.enum(["low", "medium", "high"]).optional(),
  hosted_web_search: z.boolean().optional(),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.int().positive().optional(),
  thinking_level: z.string().min(1).optional(),
  include_thoughts: z.boolean().optional(),
  client_version: z.string().regex(/^[A-Za-z0-9._+-]+$/, "use a version like 1.2.3").optional(),
  vendor_headers: headerMap.optional(),
  vendor_user_agent: headerValue.min(1).optional(),
  vendor_body: json.optional(),
};

const wireSettingsSchema = z.strictObject({
  ...wireSettingsShape,
  /** Rules for some models, applied in order over the settings above; later rules win. */
  models: z.array(z.strictObject({ match: z.array(glob).min(1), ...wireSettingsShape }))
    .default([]),
});

/** `[request]`: one table per wire API. */
export const requestSchema = z.strictObject({
  messages: wireSettingsSchema,
  chat: wireSettingsSchema,
  responses: wireSettingsSchema,
  gemini: wireSettingsSchema,
}).partial().prefault({});

const PROMPT_SLOT_ALL = /\{\{\s*prompt\s*\}\}/g;

/** Where a piece of context goes (see `ContextEntry`). */
export const contextSlotSchema = z.enum([
  "system",
  "developer",
  "user_item",
  "first_user",
  "system_message",
  "every_user",
  "turn_prefix",
  "first_prompt",
]);

/** One `[[context]]` entry: a template in a file or inline, and the slot it goes to. */
export const contextSchema = z.array(
  z.strictObject({
    slot: contextSlotSchema,
    /** A Markdown file (relative to the spec's folder) with `{{variable}}` placeholders. */
    file: z.string().min(1).optional(),
    /** The template inline, instead of `file`. */
    text: z.string().min(1).optional(),
    cache: z.boolean().default(false),
    same_part: z.boolean().default(false),
    /** Prompt variables: the entry is left out while every one of them is empty. */
    when: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
  }).refine((e) => (e.file === undefined) !== (e.text === undefined), {
    message: "set exactly one of file or text",
  }),
).default([]);

type WireSettingsInput = z.infer<typeof wireSettingsSchema>;

/** The parsed `[request]` table as the adapters take it: camelCase keys, compiled globs. */
export function toRequestSpecs(parsed: z.infer<typeof requestSchema>): RequestSpecs {
  const out: RequestSpecs = {};
  for (const wire of ["messages", "chat", "responses", "gemini"] as const) {
    const table = parsed[wire];
    if (!table) continue;
    const { models, ...base } = table;
    out[wire] = {
      base: camelSpec(base),
      rules: (models ?? []).map(({ match, ...set }) => ({
        models: match.map(globRegExp),
        patterns: match,
        set: camelSpec(set),
      })),
    };
  }
  return out;
}

export function camelSpec(table: Omit<WireSettingsInput, "models">): WireRequestSpec {
  const spec: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(table)) {
    if (value !== undefined) {
      spec[key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = value;
    }
  }
  return spec as WireRequestSpec;
}

/**
 * The context layout: the system prompt first (in `slot`, cached when `cache`), then each
 * `[[context]]` entry with its text read (`file` relative to `dir`) and its variables checked.
 */
export async function loadContext(
  entries: z.infer<typeof contextSchema>,
  opts: {
    dir: string;
    /** The `harness.toml` the entries come from, named in errors. */
    specFile: string;
    systemPrompt: { text: string; slot: ContextSlot; cache: boolean };
    at: (key: string) => string;
    readText: (path: string, where: string) => Promise<string>;
  },
): Promise<ContextEntry[]> {
  const { systemPrompt, at } = opts;
  const first: ContextEntry = { ...systemPrompt, samePart: false };
  const rest = await Promise.all(entries.map(async (entry, i): Promise<ContextEntry> => {
    const where = at(`context[${i}]`);
    const file = entry.file ? resolve(opts.dir, entry.file) : undefined;
    const text = file ? await opts.readText(file, `${where}.file`) : entry.text!;
    if (entry.slot === "first_prompt" && text.match(PROMPT_SLOT_ALL)?.length !== 1) {
      throw new HarnessError(`${where}: a first_prompt template needs {{prompt}} exactly once`, {
        hint: "Put {{prompt}} where the user's first prompt goes",
      });
    }
    const what = file ? "context file" : `[[context]] entry ${i + 1} (text) in`;
    checkPromptTemplate(text.replace(PROMPT_SLOT_ALL, ""), file ?? opts.specFile, what);
    const when = entry.when === undefined ? [] : [entry.when].flat();
    for (const name of when) {
      if (Object.hasOwn(PROMPT_VARIABLES, name)) continue;
      throw new HarnessError(`${where}.when: "${name}" is not a prompt variable`, {
        hint: `Use one of: ${Object.keys(PROMPT_VARIABLES).join(", ")}`,
      });
    }
    return {
      slot: entry.slot,
      text,
      cache: entry.cache,
      samePart: entry.same_part,
      ...(when.length ? { when: when.map((name) => PROMPT_VARIABLES[name]) } : {}),
    };
  }));
  return [first, ...rest];
}
