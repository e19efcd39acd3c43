import { habitsCase } from "./_habits.ts";

habitsCase("zcode", "habits_zcode.jsonl", { wires: ["messages"] });
