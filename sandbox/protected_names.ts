/**
 * The names kept read-only under every writable root (reference/sandbox.md §2.5): our own
 * (`.git`, `.agents`, `.openinterpreter`) and the other agents' files that hold runnable
 * definitions (issue 33: settings, MCP files, command and sub-agent folders). A missing one of
 * ours is covered by a placeholder so that a command cannot create it; a missing one of the other
 * agents' is not (an empty folder named `.mcp.json` in the user's tree would break those agents,
 * and the names are many): one a command creates is held back from the next session
 * (`lib/workspace/held_back.ts`) and what it defines still needs the user's trust.
 */

/** Other agents' setup names, read-only where they exist (`lib/setups/locations.ts`). */
export const SETUP_PROTECTED_NAMES: readonly string[] = Object.freeze([
  ".claude",
  ".gemini",
  ".qwen",
  ".opencode",
  ".cursor",
  ".codex",
  ".mcp.json",
  "opencode.json",
  "opencode.jsonc",
]);

/** Protected names re-bound read-only under every writable root unless the caller says otherwise. */
export const DEFAULT_PROTECTED_NAMES: readonly string[] = Object.freeze([
  ".git",
  ".agents",
  ".openinterpreter",
  ...SETUP_PROTECTED_NAMES,
]);

/** Whether a missing protected `name` gets a placeholder (ours do; other agents' do not). */
export function coveredWhenMissing(name: string): boolean {
  return !SETUP_PROTECTED_NAMES.includes(name);
}
