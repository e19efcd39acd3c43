import { escapeSuite } from "./_escape_suite.ts";

escapeSuite([
  { harness: "kimi-code", wire: "chat" },
  { harness: "kimi-cli", wire: "chat" },
  { harness: "deepseek-tui", wire: "chat" },
  { harness: "opencode", wire: "chat" },
  { harness: "pi", wire: "messages" },
  { harness: "minimal", wire: "chat" },
]);
