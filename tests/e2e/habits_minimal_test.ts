import { habitsCase } from "./_habits.ts";

habitsCase("minimal", "habits_minimal.jsonl", {
  wires: ["chat"],
  json: ["command_execution", "file_change"],
});
