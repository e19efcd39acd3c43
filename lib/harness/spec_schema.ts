import * as z from "zod";
import { globProblem } from "./_glob.ts";
import { LOOP_SHAPES } from "./loop_shape_names.ts";
import { projectInstructionsSchema } from "./project_instructions.ts";
import { contextSchema, contextSlotSchema, requestSchema } from "./request_schema.ts";
import { codeModeSchema } from "./code_mode_schema.ts";

const glob = z.string().superRefine((pattern, ctx) => {
  const problem = globProblem(pattern);
  if (problem) ctx.addIssue({ code: "custom", message: `bad pattern: ${problem}` });
});

/**
 * When the harness is chosen automatically (no `harness` setting): it is a candidate when any
 * listed pattern matches (an empty block never matches), and the candidate with the highest
 * `priority` wins; on a tie a user harness wins over a built-in one. Patterns are `*` globs,
 * case-insensitive; `providers` is matched against the provider's id and its name.
 */
export const matchSchema = z.strictObject({
  models: z.array(glob).default([]),
  providers: z.array(glob).default([]),
  base_urls: z.array(glob).default([]),
  /** Wire APIs of the provider that claim the harness (`messages` → claude-code). */
  wire_apis: z.array(z.enum(["responses", "chat", "messages", "gemini"])).default([]),
  priority: z.int().default(0),
});

/** What automatic choice reads of a spec: `[match]` and the wire APIs the harness speaks. */
export const candidateSchema = z.looseObject({
  match: matchSchema.prefault({}),
  wire_apis: z.array(z.string()).optional(),
});

/** What a session may have that a tool's `when` asks for (see `session_tools.ts`). */
const SESSION_CONDITIONS = ["mcp_servers", "changes_allowed"] as const;

/** How a tool's result is rendered: a template with `{field}` placeholders. */
const resultSchema = z.strictObject({
  template: z.string(),
  empty_output: z.string().optional(),
  /**
   * Output fields that make a result an error (the wire's error flag, such as `is_error` on
   * Messages) when any of them is present, as `{if_<field>}` tests it: `["exit_code"]` flags a
   * non-zero exit.
   */
  error_if: z.array(z.string().regex(/^[a-z][a-z0-9_]*$/)).optional(),
  /** Template for an error result (see `error_if`); `empty_output` does not apply to it. */
  failed_template: z.string().optional(),
  /** An output field of strings, each sent as a text part after the template's (code mode). */
  parts: z.string().regex(/^[a-z][a-z0-9_]*$/).optional(),
  /** With `parts`: a template for a last part, left out when it renders empty. */
  last_part: z.string().optional(),
});

/**
 * Error code of the capability → the whole text of that failure in the vendor's words (not
 * wrapped in error_template), with the code's `{fields}`; other failures keep our wording.
 */
const errorTexts = z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), z.string().min(1)).default({});

/**
 * Schema of `harnesses/<id>/harness.toml`, the contract for harness authors. Paths are relative
 * to the spec's folder. Unknown keys are errors, so a misspelt key never passes silently.
 */
export const harnessSpecSchema = z.strictObject({
  /** Folder name; must equal the folder the spec is in. */
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, "use lowercase letters, digits, '_' or '-'"),
  label: z.string().min(1),
  /** Markdown template with `{{variable}}` placeholders. */
  system_prompt: z.string().min(1),
  /** Where the system prompt goes: a `[[context]]` slot (Terminus 2 opens the first prompt). */
  system_prompt_slot: contextSlotSchema.default("system"),
  /** Messages: a cache breakpoint on the system prompt's block. */
  system_prompt_cache: z.boolean().default(false),
  /** Further context, each piece in its vendor's slot, after the system prompt. */
  context: contextSchema,
  /**
   * Where the vendor puts project instructions (AGENTS.md; CLAUDE.md too where a template has
   * `{{claude_md}}`) and how it frames each file: `slot` is `inline` (where a template has
   * `{{agents_md}}`), a context slot (the block in `file` or `text` goes first in that slot) or
   * `none`; `file_template` and `global_template` frame each file (`{path}`, `{relative_path}`,
   * `{text}`); `global_separator` goes between the user's own file and the project's. When absent,
   * the templates place `{{agents_md}}` and the files are joined plainly.
   */
  project_instructions: projectInstructionsSchema.optional(),
  /** What the harness sends on each wire besides the conversation. */
  request: requestSchema,
  /** Reliability guidance (Markdown) put where the prompt has `{{guidance}}` (`harness_guidance`). */
  guidance: z.string().min(1).optional(),
  /**
   * Facts per model family for `{{model_name}}` and `{{knowledge_cutoff}}`: the first entry whose
   * `match` glob matches the model id gives its display name and training cutoff.
   */
  model_facts: z.array(z.strictObject({
    match: z.array(glob).min(1),
    name: z.string().min(1),
    knowledge_cutoff: z.string().min(1),
  })).default([]),
  wire_apis: z.array(z.enum(["responses", "chat", "messages", "gemini"])).min(1),
  reasoning_replay: z.enum(["all", "latest", "none"]),
  /**
   * Reminders the harness injects, in its vendor's style: `todo_stale` text is added to a tool
   * result once `after_calls` tool calls have passed without a todo update while items are open;
   * `loop` text once the model has made the same failing call `loop_guard.repeats` times in a
   * row (`{tool}` and `{repeats}` are filled in), or, with `shape`, once it loops another way
   * (see `LOOP_SHAPES`); `goal_budget` text when the goal has used 80% of its budget and again
   * when it is spent (`{objective}`, `{used}`, `{budget}`, `{remaining}` are filled in). (Context
   * at the start of a session is a `[[context]]` entry.)
   */
  reminders: z.array(z.strictObject({
    when: z.enum(["todo_stale", "loop", "goal_budget"]),
    /** `loop` only: the kind of loop the text answers; default `failing_call`. */
    shape: z.enum(LOOP_SHAPES).optional(),
    after_calls: z.int().min(1).optional(),
    text: z.string().min(1),
  })).default([]),
  /** Reasoning text sent on a tool-calling assistant turn that had none (DeepSeek TUI). */
  reasoning_placeholder: z.string().min(1).optional(),
  /** Text of a failed call; `{message}` and `{hint}` are filled in. */
  error_template: z.string().min(1),
  /**
   * Whole text (not wrapped in error_template) for a call to a tool the harness lacks; `{name}`
   * and `{available}` (the tool names, comma-separated) are filled in.
   */
  unknown_tool_template: z.string().min(1),
  /**
   * Whole text for a call to a deferred tool that is not loaded yet (Claude Code's input-validation
   * error); `{name}` and `{search_tool}` (the harness's tools.search tool) are filled in. Unset:
   * such a call runs.
   */
  unloaded_tool_template: z.string().min(1).optional(),
  /**
   * Whole text of the result of a tool call the user interrupted (Ctrl-C or Esc), while it ran or
   * before it could run, in the vendor's words (Claude Code: `[Request interrupted by user for
   * tool use]`). Default: a neutral sentence.
   */
  interrupted_text: z.string().min(1).optional(),
  /** Whole texts for bad arguments (see InvalidArgumentsTexts in types.ts); ours when absent. */
  invalid_arguments: z.strictObject({
    template: z.string().min(1),
    issue: z.string().min(1).optional(),
    missing: z.string().min(1).optional(),
    unexpected: z.string().min(1).optional(),
    invalid: z.string().min(1).optional(),
    not_json: z.string().min(1).optional(),
  }).optional(),
  /**
   * Wire name of a tool from a tool source (an MCP server): `{source}` is the source's id and
   * `{tool}` the tool's own name, both with characters other than letters, digits, `_` and `-`
   * made `_`. Default `mcp__{source}__{tool}`.
   */
  source_tool_name: z.string().regex(/^(?:[A-Za-z0-9_-]|\{source\}|\{tool\})*$/, {
    message: "use letters, digits, '_', '-', {source} and {tool}",
  }).refine((t) => t.includes("{tool}"), { message: "must contain {tool}" }).optional(),
  match: matchSchema.prefault({}),
  /**
   * The lean surface for small models (see `lib/harness/lean.ts`): `tools` names the core tools
   * kept (wire names of `[[tools]]` entries, all sent from the first request), `system_prompt`
   * a short prompt file that replaces the system prompt in its slot, and `context` the
   * `[[context]]` entries kept, in the same form (none when absent). Project instructions go
   * where `[project_instructions]` puts them, as in the full surface.
   */
  lean: z.strictObject({
    tools: z.array(z.string().min(1)).min(1),
    system_prompt: z.string().min(1),
    context: contextSchema,
  }).optional(),
  /** Codex's code mode for the models it matches (lib/harness/code_mode.ts). */
  code_mode: codeModeSchema.optional(),
  /**
   * Texts the session sends besides the system prompt, each a file relative to the spec's
   * folder; a key left out takes the shared default in `harnesses/_shared/`.
   */
  prompts: z.strictObject({
    /** The request that asks the model to summarize the history (sent as written). */
    compaction: z.string().min(1).optional(),
    /** The message that replaces the compacted history; `{summary}` is filled in. */
    compaction_summary: z.string().min(1).optional(),
    /** System prompt of a review turn, with `{{variables}}` like the system prompt. */
    reviewer: z.string().min(1).optional(),
    /** TOML file with the texts of the `{{sandbox}}` variable (see `_shared/sandbox.toml`). */
    sandbox: z.string().min(1).optional(),
  }).prefault({}),
  /**
   * How the model calls tools: native function calls (default), or a text protocol that
   * parses commands out of the reply text. Text harnesses still declare [[tools]]; those are
   * used to map and run the parsed commands and are not sent on the wire.
   */
  interaction: z.strictObject({
    kind: z.enum(["function_calls", "text"]).default("function_calls"),
    /** Text protocol id, one of lib/harness/protocols/mod.ts; required when kind = "text". */
    protocol: z.string().min(1).optional(),
    /** Texts the protocol sends, by name, with the `{placeholders}` the protocol documents. */
    messages: z.record(z.string(), z.string()).default({}),
  }).optional(),
  tools: z.array(z.strictObject({
    /** JSON file with `{ name, description, parameters }`. */
    declaration: z.string().min(1),
    /** Capability id, for example `shell.run`. */
    capability: z.string().min(1),
    /** Wire argument → capability field; "" accepts the argument and ignores it. */
    args: z.record(z.string(), z.string()).default({}),
    fixed_args: z.record(z.string(), z.unknown()).default({}),
    /** Wire argument → factor for a numeric value, e.g. `{ timeout = 1000 }` for seconds → ms. */
    scale: z.record(z.string(), z.number().positive()).default({}),
    /** Wire argument → number added after `scale`, e.g. `{ offset = 1 }` for 0-based lines. */
    shift: z.record(z.string(), z.number()).default({}),
    /** Left out of requests until a tool search loads it; its name is listed in the prompt. */
    deferred: z.boolean().default(false),
    /** Sent only in code mode (`[code_mode]`); the other tools are then reached from its source. */
    code_mode: z.boolean().default(false),
    /**
     * Offered only in sessions that have this: `mcp_servers` (one or more enabled
     * `[mcp_servers.ID]`), as vendors send their MCP resource tools; `changes_allowed` (a change
     * to files can run, or someone can approve it, under the policy in force), as headless
     * vendors leave out the tools nobody could approve. Always offered when unset.
     */
    when: z.enum(SESSION_CONDITIONS).optional(),
    result: resultSchema,
    /** Vendor texts of the capability's coded failures (see `errorTexts`). */
    errors: errorTexts,
    /**
     * Calls that set wire argument `when` (true, or any non-empty value; or, with `matches`, a
     * string matching that pattern) go to another capability with their own mapping and result,
     * e.g. a background `Bash` to `shell.start`, or a shell `apply_patch <<EOF` to the patcher.
     */
    route: z.strictObject({
      when: z.string().min(1),
      /** With `matches`, the route applies when `when` is a string matching this pattern. */
      matches: z.string().min(1).optional(),
      capability: z.string().min(1),
      args: z.record(z.string(), z.string()).default({}),
      fixed_args: z.record(z.string(), z.unknown()).default({}),
      scale: z.record(z.string(), z.number().positive()).default({}),
      result: resultSchema,
      errors: errorTexts,
    }).optional(),
  })).default([]),
});

/** A parsed `harness.toml`. */
export type HarnessSpec = z.infer<typeof harnessSpecSchema>;

/** Schema of a tool declaration file (`tools/<name>.json`). */
export const declarationSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "use 1-64 letters, digits, '_', '.' or '-'"),
  description: z.string().min(1),
  /** Code mode: the namespace the tool is sent in (one of `[code_mode].namespaces`). */
  namespace: z.string().regex(/^[a-z][a-z0-9_]*$/).optional(),
  /** A freeform tool: the grammar of the raw text it takes (its one parameter is `input`). */
  format: z.strictObject({
    type: z.literal("grammar"),
    syntax: z.enum(["lark", "regex"]),
    definition: z.string().min(1),
  }).optional(),
  parameters: z.looseObject({
    type: z.literal("object"),
    properties: z.record(z.string(), z.looseObject({})).default({}),
    required: z.array(z.string()).optional(),
    additionalProperties: z.union([z.boolean(), z.looseObject({})]).optional(),
  }),
});
