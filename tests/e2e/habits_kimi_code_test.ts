import { habitsCase } from "./_habits.ts";

habitsCase("kimi-code", "habits_kimi_code.jsonl", {
  wires: ["chat"],
  json: ["command_execution", "file_change"],
});
