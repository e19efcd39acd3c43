import { execJsonCases } from "./_exec_json_cases.ts";

execJsonCases([
  { harness: "opencode", wire: "chat", kinds: ["command_execution", "file_change", "todo_list"] },
  { harness: "pi", wire: "messages", kinds: ["command_execution", "file_change"] },
  { harness: "qwen-code", wire: "responses", kinds: ["command_execution", "file_change"] },
  { harness: "zcode", wire: "messages", kinds: ["command_execution", "file_change", "todo_list"] },
  { harness: "swe-agent", wire: "chat", kinds: ["command_execution", "file_change"] },
  { harness: "mini-swe-agent", wire: "messages", kinds: ["command_execution"] },
  { harness: "terminus-2", wire: "chat", kinds: ["command_execution"] },
]);
