import { execJsonCases } from "./_exec_json_cases.ts";

execJsonCases([
  {
    harness: "native",
    wire: "responses",
    kinds: ["command_execution", "file_change", "todo_list"],
  },
  { harness: "claude-code", wire: "messages", kinds: ["command_execution", "file_change"] },
  { harness: "claude-code-bare", wire: "chat", kinds: ["command_execution", "file_change"] },
  { harness: "deepseek-tui", wire: "chat", kinds: ["command_execution", "file_change"] },
  {
    harness: "kimi-cli",
    wire: "responses",
    kinds: ["command_execution", "file_change", "todo_list"],
  },
  { harness: "kimi-code", wire: "chat", kinds: ["command_execution", "file_change"] },
  { harness: "minimal", wire: "messages", kinds: ["command_execution", "file_change"] },
]);
