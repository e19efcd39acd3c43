import { habitsCase } from "./_habits.ts";

habitsCase("kimi-cli", "habits_kimi_cli.jsonl", {
  wires: ["chat"],
  json: ["command_execution", "file_change", "todo_list"],
});
