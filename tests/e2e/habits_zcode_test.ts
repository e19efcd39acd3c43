import { habitsCase } from "./_habits.ts";

habitsCase("zcode", "habits_zcode.jsonl", {
  wires: ["messages"],
  json: ["command_execution", "file_change", "todo_list"],
});
