import { habitsCase } from "./_habits.ts";

habitsCase("claude-code", "habits_claude_code.jsonl", {
  wires: ["messages"],
  json: ["command_execution", "file_change"],
});
