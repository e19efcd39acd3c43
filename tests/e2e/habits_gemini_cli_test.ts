import { habitsCase } from "./_habits.ts";

// Gemini CLI's tools on Gemini's own wire: thought signatures replayed, results as Gemini CLI
// words them (issue 31 item 1).
habitsCase("gemini-cli", "habits_gemini_cli.jsonl", { wires: ["gemini"] });
