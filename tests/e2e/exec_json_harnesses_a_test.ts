import { execJsonCases } from "./_exec_json_cases.ts";

execJsonCases([
  {
    harness: "native",
    wire: "responses",
    kinds: ["command_execution", "file_change", "todo_list"],
  },
]);
