import { escapeSuite } from "./_escape_suite.ts";

escapeSuite([
  { harness: "native", wire: "responses" },
  { harness: "claude-code", wire: "messages" },
  { harness: "claude-code-bare", wire: "chat" },
  { harness: "zcode", wire: "messages" },
  { harness: "qwen-code", wire: "chat" },
  { harness: "swe-agent", wire: "chat" },
  { harness: "mini-swe-agent", wire: "messages" },
]);
