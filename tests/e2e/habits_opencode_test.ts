import { habitsCase } from "./_habits.ts";

habitsCase("opencode", "habits_opencode.jsonl", {
  wires: ["chat"],
  json: ["command_execution", "file_change", "todo_list"],
});
