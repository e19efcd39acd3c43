/**
 * Codex `config.toml` keys that interpreter does not have. Codex SDK apps and shared config files
 * set them; they are ignored with a short warning instead of a "did you mean" for a typo.
 * A `*` matches any one key; a key matches when one of these is a prefix of its path.
 * Also the schema of Codex's notification keys, which we honour: `[tui]` (what the REPL signals
 * to the terminal, and when) and `notify` (a program run after each agent turn). `notify` counts
 * in the user's config and in `-c` overrides only, as in Codex: a project's config cannot make
 * the user run a program.
 */
import * as z from "zod";

const CODEX_ONLY_KEYS = [
  "features",
  "tools",
  "show_raw_agent_reasoning",
  "model_supports_reasoning_summaries",
  "model_reasoning_summary_format",
  "file_opener",
  "disable_response_storage",
  "preferred_auth_method",
  "forced_login_method",
  "forced_chatgpt_workspace_id",
  "chatgpt_base_url",
  "cli_auth_credentials_store",
  "mcp_oauth_credentials_store",
  "experimental_instructions_file",
  "experimental_use_exec_command_tool",
  "experimental_use_freeform_apply_patch",
  "include_plan_tool",
  "include_apply_patch_tool",
  "review_model",
  "approvals_reviewer",
  "default_permissions",
  "permissions",
  "tui", // its keys other than the notification ones (below)
  "otel",
  "windows_wsl_setup_acknowledged",
  "history.max_bytes",
  "model_providers.*.env_key_instructions",
  "model_providers.*.experimental_bearer_token",
  "model_providers.*.websocket_connect_timeout_ms",
  "model_providers.*.requires_openai_auth",
  "model_providers.*.supports_websockets",
  "model_providers.*.auth",
  "mcp_servers.*.scopes",
  "mcp_servers.*.oauth_resource",
  "mcp_servers.*.supports_parallel_tool_calls",
].map((key) => key.split("."));

/** True when `path` is a Codex key interpreter ignores (in a profile too). */
export function isCodexOnlyKey(path: readonly string[]): boolean {
  const key = path[0] === "profiles" && path.length > 2 ? path.slice(2) : path;
  return CODEX_ONLY_KEYS.some((pattern) =>
    pattern.length <= key.length && pattern.every((part, i) => part === "*" || part === key[i])
  );
}

/** What `[tui] notifications` can list. */
const NOTIFICATION_KINDS = ["agent-turn-complete", "approval-requested"] as const;
/** One kind of notification. */
export type NotificationKind = typeof NOTIFICATION_KINDS[number];

/**
 * `[tui]`: `notifications` (true, or the kinds to send), `notification_method` (`auto`: OSC 9
 * where the terminal shows it, else BEL) and `notification_condition` (send only while the
 * terminal is not known to have focus, or always). Codex's other `tui` keys are ignored.
 */
export const tuiSchema = z.strictObject({
  notifications: z.union([z.boolean(), z.array(z.enum(NOTIFICATION_KINDS))], {
    error: 'expected true, false, or a list of "agent-turn-complete" and ' +
      '"approval-requested"',
  }),
  notification_method: z.enum(["auto", "osc9", "bel"]),
  notification_condition: z.enum(["unfocused", "always"]),
}).partial();

/** `notify`: the program and its arguments; Codex's JSON payload is added as the last one. */
export const notifySchema = z.array(z.string()).refine(
  (argv) => argv.length > 0 && argv[0].trim() !== "",
  { message: 'expected a program and its arguments, as in ["notify-send", "interpreter"]' },
);

/** The `[tui]` table. */
export type TuiTable = z.infer<typeof tuiSchema>;

/** A project layer without `notify`, which only the user's config may set (a warning says so). */
export function withoutNotify<T extends { notify?: unknown }>(
  layer: T,
  file: string,
  warnings: string[],
): T {
  if (layer.notify === undefined) return layer;
  warnings.push(
    `Ignoring "notify" in "${file}": a program to run after each turn can only be set in the ` +
      "user config, as in Codex",
  );
  const { notify: _, ...rest } = layer;
  return rest as T;
}
