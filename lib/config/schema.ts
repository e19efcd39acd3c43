/**
 * The schema of `config.toml`. Every key is optional in a file; built-in defaults live in
 * `defaultValues()` so that each effective value can say which layer set it.
 */
import * as z from "zod";
import { hooksSchema } from "./hooks_schema.ts";
import { notifySchema, tuiSchema } from "./_codex_keys.ts";

/** Values of `model_reasoning_effort`. */
export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"] as const;
/** Values of `model_thinking` and of a provider's `compat.thinking`. */
const THINKING_MODES = ["adaptive", "budget", "off"] as const;
/** Values of `sandbox_mode`. */
export const SANDBOX_MODES = ["read-only", "workspace-write", "danger-full-access"] as const;
/** Values of `approval_policy`. */
export const APPROVAL_POLICIES = ["untrusted", "on-failure", "on-request", "never"] as const;
/** Values of `model_providers.<id>.wire_api`. */
const WIRE_APIS = ["chat", "responses", "messages", "gemini"] as const;
/** Values of `shell_environment_policy.inherit`. */
const ENV_INHERIT = ["all", "core", "none"] as const;
/** Values of `mcp_servers.<id>.default_tools_approval_mode` and `tools.<tool>.approval_mode`. */
const MCP_APPROVAL_MODES = ["auto", "prompt", "approve"] as const;
/** `mcp_defer_tokens` when unset: MCP tools are sent directly up to this many tokens. */
export const DEFAULT_MCP_DEFER_TOKENS = 25_000;
/** Values of `projects.<path>.trust_level`. */
const TRUST_LEVELS = ["trusted", "untrusted"] as const;
/**
 * Local providers that `--oss` can pick (`oss_provider`, `--local-provider`), in the order `--oss`
 * prefers them when several run.
 */
export const LOCAL_PROVIDERS = ["ollama", "lmstudio", "llamacpp", "vllm"] as const;

/** A `sandbox_mode` value. */
export type SandboxMode = typeof SANDBOX_MODES[number];
/** An `approval_policy` value. */
export type ApprovalPolicy = typeof APPROVAL_POLICIES[number];
/** A `projects.<path>.trust_level` value. */
export type TrustLevel = typeof TRUST_LEVELS[number];
/** A local provider id. */
export type LocalProvider = typeof LOCAL_PROVIDERS[number];

const stringMap = z.record(z.string(), z.string());
/** A header value holds no line break or other control character but tab. */
export function isHeaderValue(value: string): boolean {
  return ![...value].some((c) => c.charCodeAt(0) < 32 ? c !== "\t" : c.charCodeAt(0) === 127);
}
/** Request headers: token names, values without line breaks or control characters. */
const headerMap = z.record(
  z.string().refine((name) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name), {
    message: "not a header name: use letters, digits and dashes, like X-Title",
  }),
  z.string().refine(isHeaderValue, {
    message: "a header value cannot hold line breaks or control characters: write it on one line",
  }),
);
const stringList = z.array(z.string());
const nonEmpty = z.string().min(1);
const httpUrl = z.url({ protocol: /^https?$/ });
/** A file name, or a relative path below a folder (`docs/AGENTS.md`): no `..`, not absolute. */
const relativeName = z.string().min(1).refine(
  (name) => !/^[\\/]|^[A-Za-z]:|(^|[\\/])\.\.([\\/]|$)|\0/.test(name),
  { message: 'use a file name or a relative path inside the folder, without ".."' },
);

/** `[model_providers.<id>]`: a provider defined by the user, or changes to a built-in one. */
const providerEntrySchema = z.strictObject({
  name: nonEmpty,
  base_url: httpUrl,
  env_key: nonEmpty,
  wire_api: z.enum(WIRE_APIS),
  http_headers: headerMap,
  env_http_headers: stringMap,
  query_params: stringMap,
  /** Retries of a request that failed before its stream started: 429, 5xx (default 4). */
  request_max_retries: z.int().min(0).max(100),
  /** Retries of a stream that broke after it started: dropped, reset, stalled (default 5). */
  stream_max_retries: z.int().min(0).max(100),
  /** Longest wait for the next stream data event; SSE comments do not count (default 90000). */
  stream_idle_timeout_ms: z.int().min(1),
  /** Longest line of a stream, in bytes (default 16 MiB). */
  stream_max_line_bytes: z.int().min(1024),
  /** Most bytes of one streamed reply (default 64 MiB). */
  stream_max_reply_bytes: z.int().min(1024),
  /** Longest time of one reply, retries included (default 30 min, or 10 idle periods if longer). */
  stream_max_reply_ms: z.int().min(1),
  compat: z.strictObject({
    reasoning_field: nonEmpty,
    max_tokens_field: z.enum(["max_tokens", "max_completion_tokens"]),
    stream_usage: z.boolean(),
    /** Chat: also an empty reasoning field on tool-calling or all assistant messages; "none" sends none. */
    reasoning_replay: z.enum(["tool_calls", "always", "none"]),
    /** Messages: the thinking form the endpoint takes, over the harness's; "off" sends none. */
    thinking: z.enum(THINKING_MODES),
    /** Top-level request body keys the endpoint rejects; they are never sent. */
    drop_keys: stringList,
    /** The endpoint takes system-role messages mid-conversation (Anthropic's Messages API does). */
    system_messages: z.boolean(),
    /** Chat: reasoning asked for as `reasoning_effort`, or OpenRouter's `reasoning` object. */
    reasoning_request: z.enum(["reasoning_effort", "reasoning"]),
    /** Chat: the endpoint takes `cache_control` markers on content parts (OpenRouter). */
    cache_markers: z.boolean(),
    /** Responses: the server runs hosted `web_search`. */
    hosted_web_search: z.boolean(),
  }).partial(),
}).partial();

const mcpToolSchema = z.strictObject({ approval_mode: z.enum(MCP_APPROVAL_MODES) }).partial();

/** `[mcp_servers.<id>]`: a stdio (`command`) or streamable HTTP (`url`) MCP server. */
export const mcpServerSchema = z.strictObject({
  command: nonEmpty,
  args: stringList,
  env: stringMap,
  env_vars: stringList,
  cwd: nonEmpty,
  url: httpUrl,
  bearer_token_env_var: nonEmpty,
  http_headers: stringMap,
  env_http_headers: stringMap,
  startup_timeout_sec: z.number().positive(),
  startup_timeout_ms: z.int().positive(),
  tool_timeout_sec: z.number().positive(),
  /** Most bytes of one tool result's text or resource read; past it, head and tail with a note. */
  max_output_bytes: z.int().min(1024),
  /** Most bytes of one tool result's images together; those past it are left out with a note. */
  max_image_bytes: z.int().min(0),
  enabled: z.boolean(),
  required: z.boolean(),
  enabled_tools: stringList,
  disabled_tools: stringList,
  default_tools_approval_mode: z.enum(MCP_APPROVAL_MODES),
  tools: z.record(z.string(), mcpToolSchema),
}).partial();

const sandboxWorkspaceWriteSchema = z.strictObject({
  writable_roots: stringList,
  network_access: z.boolean(),
  exclude_tmpdir_env_var: z.boolean(),
  exclude_slash_tmp: z.boolean(),
}).partial();

const shellEnvironmentPolicySchema = z.strictObject({
  inherit: z.enum(ENV_INHERIT),
  ignore_default_excludes: z.boolean(),
  exclude: stringList,
  include_only: stringList,
  set: stringMap,
  experimental_use_profile: z.boolean(),
}).partial();

/** What `import_user_setups` can take in from other agents' user-level files. */
export const USER_SETUP_KINDS = ["mcp", "hooks", "permissions", "env"] as const;

/** A host name or IP address (IPv6 bare or in brackets), optionally with ":port". */
const HOST_ENTRY =
  /^(?:\[[0-9a-f:.]+\]|[^\s/?#@[\]:]+)(?::\d{1,5})?$|^[0-9a-f:.]*:[0-9a-f:.]*:[0-9a-f:.]*$/i;

/** `[web_fetch]`: `allowed_hosts` may be fetched although they are local or private addresses. */
const webFetchSchema = z.strictObject({
  allowed_hosts: stringList.superRefine((hosts, ctx) => {
    const bad = hosts.find((host) => !HOST_ENTRY.test(host));
    if (bad === undefined) return;
    ctx.addIssue({
      code: "custom",
      message: `"${bad}" is not a host: use a host name or IP address, optionally with ` +
        `":port", as in "localhost:8080"`,
    });
  }),
}).partial();

/** An environment variable's name, as `api_key_env` takes it. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `[web_search_backend]`: where the web-search tools send queries. `searxng` is a SearXNG
 * instance's JSON API at `url`; `brave` is the Brave Search API (`url` overrides its endpoint),
 * with the key in the environment variable `api_key_env` (default `BRAVE_SEARCH_API_KEY`).
 */
const webSearchBackendSchema = z.strictObject({
  kind: z.enum(["searxng", "brave"]),
  url: z.url({ protocol: /^https?$/, error: "use an http:// or https:// URL" }).optional(),
  api_key_env: z.string().refine((name) => ENV_NAME.test(name), {
    message: "use the name of an environment variable, as in BRAVE_SEARCH_API_KEY",
  }).optional(),
  /** Results a search returns unless the call asks for a number. */
  max_results: z.int().min(1).max(20).optional(),
}).superRefine((table, ctx) => {
  if (table.kind === "searxng" && table.url === undefined) {
    ctx.addIssue({
      code: "custom",
      message: 'kind = "searxng" needs url, the instance\'s address, as in ' +
        '"http://127.0.0.1:8888"',
    });
  }
});

/** A loop-guard threshold: 0 turns its check off, else at least `min`. */
const guardCount = (min: number, what: string) =>
  z.int().refine((n) => n === 0 || n >= min, {
    message: `use 0 to turn this check off, or ${what} of ${min} or more`,
  });

/** `[loop_guard]`: when the loop guard reminds, then stops, a model that repeats itself. */
const loopGuardSchema = z.strictObject({
  repeats: guardCount(2, "a number of repeats"),
  format_errors: guardCount(1, "a number of replies"),
  cycle_repeats: guardCount(2, "a number of cycles"),
  same_read_repeats: guardCount(2, "a number of repeats"),
  no_progress_steps: guardCount(2, "a number of steps"),
  repeated_span_repeats: guardCount(2, "a number of repeats"),
  repeated_span_min_chars: z.int().min(1).max(2000),
}).partial();

/** One `[model_prices."MODEL"]` table: USD per million tokens. */
const modelPriceSchema = z.strictObject({
  input: z.number().min(0),
  output: z.number().min(0),
  cached_input: z.number().min(0).optional(),
});

const settingsShape = {
  model: nonEmpty,
  model_provider: nonEmpty,
  /** The base URL of the active provider when it speaks an OpenAI wire (the Codex SDK's baseUrl). */
  openai_base_url: httpUrl,
  model_reasoning_effort: z.enum(REASONING_EFFORTS),
  /** Messages: thinking "adaptive", "budget" or "off", over the harness's choice. */
  model_thinking: z.enum(THINKING_MODES),
  /** Responses: `reasoning.summary`, over the harness's; "none" asks for no summary. */
  model_reasoning_summary: z.enum(["auto", "concise", "detailed", "none"]),
  /** Responses: `text.verbosity`. */
  model_verbosity: z.enum(["low", "medium", "high"]),
  /** The output limit of each model request, over the harness's. */
  model_max_output_tokens: z.int().positive(),
  /** Send the harness's vendor client identifiers (x-app, originator, vendor user agents). */
  vendor_client_headers: z.boolean(),
  model_context_window: z.int().positive(),
  /** Tokens of history after which a session compacts; unset means 85% of the window. */
  model_auto_compact_token_limit: z.int().positive(),
  /** Leave the model's reasoning out of the REPL's transcript. */
  hide_agent_reasoning: z.boolean(),
  /** Show no output of a successful command in the REPL (only its exit code and duration). */
  hide_command_output: z.boolean(),
  /** The REPL's line of model, context, tokens and cost after each turn, and exec's; default on. */
  status_line: z.boolean(),
  /** The REPL's accessible plain mode: no redraws or colors, role labels, numbered choices. */
  plain: z.boolean(),
  /** `[history]`: what the REPL keeps of typed prompts in `<home>/history.jsonl`. */
  history: z.strictObject({ persistence: z.enum(["save-all", "none"]) }).partial(),
  /** Most model requests in one turn; unset means the loop's default (1000). */
  max_turn_steps: z.int().positive(),
  /** `max_turn_steps` by Claude Code's name (a warning names the key to use). */
  max_turns: z.int().positive(),
  /** USD the session may spend (catalog or `[model_prices]`); reaching it stops the turn. */
  max_budget_usd: z.number().positive(),
  /** `[model_prices."MODEL"]`: USD per million tokens, over the catalog's, for any model. */
  model_prices: z.record(z.string(), modelPriceSchema),
  /** Recover tool calls a model wrote as text (`<tool_call>` and the like); default true. */
  tool_call_repair: z.boolean(),
  /** Tokens of MCP tool declarations above which they go behind the harness's tool search. */
  mcp_defer_tokens: z.int().min(0),
  /** `loop_guard.repeats` by its older name. */
  loop_guard_repeats: guardCount(2, "a number of repeats"),
  /** The loop guard's thresholds (`lib/hooks/loop_guard.ts`), over `loop_guard_repeats`. */
  loop_guard: loopGuardSchema,
  harness: z.string(),
  /** `[harness_routes]`: model name or glob → harness id, consulted before the specs' `[match]`. */
  harness_routes: stringMap,
  harness_guidance: z.boolean(),
  /** The harness's lean surface: true always, false never; unset: by the model's window and size. */
  lean: z.boolean(),
  /** Codex's code mode for the models its harness runs in it (`[code_mode]`); false: never. */
  code_mode: z.boolean(),
  /** Most bytes of AGENTS.md text from the project's folders (root to cwd); 0 leaves them out. */
  project_doc_max_bytes: z.int().min(0),
  /** File names tried in each folder after `AGENTS.override.md` and `AGENTS.md`, in order. */
  project_doc_fallback_filenames: z.array(relativeName),
  /** Names whose presence marks the project root (default `[".git"]`); `[]`: the cwd only. */
  project_root_markers: z.array(relativeName),
  sandbox_mode: z.enum(SANDBOX_MODES),
  approval_policy: z.enum(APPROVAL_POLICIES),
  sandbox_workspace_write: sandboxWorkspaceWriteSchema,
  shell_environment_policy: shellEnvironmentPolicySchema,
  web_fetch: webFetchSchema,
  /** Codex's hosted web search: live pages, OpenAI's cache, or off. */
  web_search: z.enum(["live", "cached", "disabled"]),
  web_search_backend: webSearchBackendSchema,
  model_providers: z.record(z.string(), providerEntrySchema),
  mcp_servers: z.record(z.string(), mcpServerSchema),
  oss_provider: z.enum(LOCAL_PROVIDERS),
  /**
   * Which of other agents' user-level setups apply (their commands, agents and instruction files
   * always do): MCP servers, hooks, permission rules and `env` from `~/.claude`, `~/.gemini`,
   * `~/.qwen`, `~/.config/opencode`, `~/.cursor` (lib/setups).
   */
  import_user_setups: z.array(z.enum(USER_SETUP_KINDS)),
  /** Claude Code's permission rules (`Bash(rm:*)`, `Read(./secrets/**)`): deny, ask, allow. */
  permission_rules: z.strictObject({ allow: stringList, ask: stringList, deny: stringList })
    .partial(),
  /** A command whose first output line is the REPL's status line (Claude Code's JSON on stdin). */
  status_line_command: nonEmpty,
};

/** `[profiles.<name>]`: the top-level keys except `profile`, `profiles` and `projects`. */
const profileSchema = z.strictObject({ ...settingsShape, hooks: hooksSchema }).partial();

/** One `config.toml` file (user or project), or one `-c` override, before merging. */
export const configFileSchema = z.strictObject({
  ...settingsShape,
  profile: nonEmpty,
  profiles: z.record(z.string(), profileSchema),
  projects: z.record(z.string(), z.strictObject({ trust_level: z.enum(TRUST_LEVELS) }).partial()),
  /** `[hooks]`: commands run on session events (lib/hooks); each file's hooks all run. */
  hooks: hooksSchema,
  /** `[tui]`: the REPL's notifications (_codex_keys.ts). */
  tui: tuiSchema,
  /** A program run after each agent turn with Codex's JSON payload (user config only). */
  notify: notifySchema,
}).partial();

/** One config layer as written in a file. */
export type ConfigFile = z.infer<typeof configFileSchema>;
/** The `[loop_guard]` table. */
export type LoopGuardTable = z.infer<typeof loopGuardSchema>;
/** One `[model_providers.<id>]` entry. */
export type ProviderEntry = z.infer<typeof providerEntrySchema>;
/** The `[web_search_backend]` table. */
export type WebSearchBackendTable = z.infer<typeof webSearchBackendSchema>;
/** One `[mcp_servers.<id>]` entry. */
export type McpServerEntry = z.infer<typeof mcpServerSchema>;
/** The `[sandbox_workspace_write]` table. */
export type SandboxWorkspaceWrite = Required<z.infer<typeof sandboxWorkspaceWriteSchema>>;
/** The `[shell_environment_policy]` table. */
export type ShellEnvironmentPolicy = Required<z.infer<typeof shellEnvironmentPolicySchema>>;

/** The keys that always have a value, from the built-in defaults if no layer sets them. */
export interface ConfigDefaults {
  model_provider: string;
  harness: string;
  harness_guidance: boolean;
  sandbox_mode: SandboxMode;
  approval_policy: ApprovalPolicy;
  sandbox_workspace_write: SandboxWorkspaceWrite;
  shell_environment_policy: ShellEnvironmentPolicy;
  model_providers: Record<string, ProviderEntry>;
  mcp_servers: Record<string, McpServerEntry>;
}

/** The merged configuration: the layers over the built-in defaults. */
export type ConfigValues = Omit<ConfigFile, keyof ConfigDefaults> & ConfigDefaults;

/**
 * Built-in defaults. The sandbox is workspace-write everywhere (Codex starts a project with no
 * trust decision read-only; our issue #4 makes workspace-write the default, so that the agent can
 * do its job out of the box, confined to the workspace). Approval is on-request, and untrusted for
 * a project marked untrusted, as in Codex.
 * Commands inherit the whole environment minus names matching *KEY*, *SECRET* and *TOKEN*.
 */
export function defaultValues(trust?: TrustLevel): ConfigDefaults {
  return {
    model_provider: "openai",
    harness: "",
    harness_guidance: true,
    sandbox_mode: "workspace-write",
    approval_policy: trust === "untrusted" ? "untrusted" : "on-request",
    sandbox_workspace_write: {
      writable_roots: [],
      network_access: false,
      exclude_tmpdir_env_var: false,
      exclude_slash_tmp: false,
    },
    shell_environment_policy: {
      inherit: "all",
      ignore_default_excludes: false,
      exclude: [],
      include_only: [],
      set: {},
      experimental_use_profile: false,
    },
    model_providers: {},
    mcp_servers: {},
  };
}

/** Why an MCP server entry is unusable (it needs exactly one of `command` or `url`), if it is. */
export function mcpTransportProblem(server: McpServerEntry): string | undefined {
  if (server.command !== undefined && server.url !== undefined) {
    return 'set only one of "command" (stdio) or "url" (HTTP), not both';
  }
  if (server.command === undefined && server.url === undefined) {
    return 'set "command" for a stdio server or "url" for an HTTP server';
  }
  return undefined;
}
