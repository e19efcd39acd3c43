/**
 * Tools only each harness advertises, which tell their requests apart when several harnesses
 * talk to one fake provider under the same model name.
 */
export const EVAL_HARNESS_TOOLS: Record<string, string[]> = {
  native: ["exec_command", "apply_patch", "update_plan"],
  "claude-code": ["Bash", "Edit", "Read"],
  minimal: ["bash", "str_replace_editor"],
};
