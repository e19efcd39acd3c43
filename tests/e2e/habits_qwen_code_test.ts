import { habitsCase } from "./_habits.ts";

habitsCase("qwen-code", "habits_qwen_code.jsonl", {
  wires: ["chat"],
  json: ["command_execution", "file_change"],
});
