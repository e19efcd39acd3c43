import { habitsCase } from "./_habits.ts";

habitsCase("opencode", "habits_opencode.jsonl", { wires: ["chat"] });
