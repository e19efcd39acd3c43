import { habitsCase } from "./_habits.ts";

habitsCase("claude-code-bare", "habits_claude_code_bare.jsonl", {
  wires: ["messages"],
  json: ["command_execution", "file_change"],
});
