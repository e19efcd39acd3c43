import { habitsCase } from "./_habits.ts";

habitsCase("pi", "habits_pi.jsonl", {
  wires: ["chat"],
  json: ["command_execution", "file_change"],
});
