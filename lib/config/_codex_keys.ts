/**
 * Codex `config.toml` keys that interpreter does not have. Codex SDK apps and shared config files
 * set them; they are ignored with a short warning instead of a "did you mean" for a typo.
 * A `*` matches any one key; a key matches when one of these is a prefix of its path.
 */
const CODEX_ONLY_KEYS = [
  "features",
  "tools",
  "notify",
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
  "tui",
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
