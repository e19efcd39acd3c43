import { execJsonCases } from "./_exec_json_cases.ts";

execJsonCases([
  { harness: "swe-agent", wire: "chat", kinds: ["command_execution", "file_change"] },
  { harness: "mini-swe-agent", wire: "messages", kinds: ["command_execution"] },
  { harness: "terminus-2", wire: "chat", kinds: ["command_execution"] },
]);
