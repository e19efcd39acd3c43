import { habitsCase } from "./_habits.ts";

habitsCase("deepseek-tui", "habits_deepseek_tui.jsonl", {
  wires: ["chat"],
  json: ["command_execution", "file_change"],
});
