import { habitsCase } from "./_habits.ts";

habitsCase("kimi-cli", "habits_kimi_cli.jsonl", { wires: ["chat"] });
