import assert from "node:assert/strict";
import { serverDetailLines, serverJson } from "./list_commands.ts";

Deno.test("serverJson() hides env and header values as the text view does, for list and get", () => {
  const stdio = { command: "npx", env: { API_KEY: "sk-secret" }, env_vars: ["HOME"] };
  const http = {
    url: "https://mcp.example.com/mcp",
    http_headers: { Authorization: "Bearer tok-secret", "X-Team": "blue" },
    env_http_headers: { "X-Key": "TRACKER_KEY" },
  };
  for (const detail of [false, true]) {
    const shown = JSON.stringify([serverJson("a", stdio, detail), serverJson("b", http, detail)]);
    assert.doesNotMatch(shown, /secret|blue/);
  }
  assert.deepEqual(serverJson("a", stdio).transport, {
    type: "stdio",
    command: "npx",
    args: [],
    env: { API_KEY: "*****" },
    env_vars: ["HOME"],
    cwd: null,
  });
  assert.deepEqual(serverJson("b", http, true).transport, {
    type: "streamable_http",
    url: "https://mcp.example.com/mcp",
    bearer_token_env_var: null,
    http_headers: { Authorization: "*****", "X-Team": "*****" },
    env_http_headers: { "X-Key": "TRACKER_KEY" },
  });
  assert.deepEqual(serverJson("c", { command: "x" }).transport.env, null, "unset stays null");
  const text = serverDetailLines("b", http).join("\n");
  assert.match(text, /http_headers: Authorization=\*\*\*\*\*, X-Team=\*\*\*\*\*/);
  assert.match(text, /env_http_headers: X-Key=TRACKER_KEY/);
});

Deno.test("serverDetailLines() names another agent's file and says when it is not trusted yet", () => {
  const setup = { file: "/repo/.mcp.json", vendor: "Claude Code", trusted: false };
  const text = serverDetailLines("notes", { command: "notes-mcp" }, setup.file, setup).join("\n");
  assert.match(text, /^ {2}file: \/repo\/\.mcp\.json \(Claude Code\)$/m);
  assert.match(text, /^ {2}trusted: no: not trusted yet: .*"interpreter trust"$/m);
  assert.match(text, /^ {2}remove: edit \/repo\/\.mcp\.json$/m);
  const trusted = serverDetailLines("notes", { command: "x" }, setup.file, {
    ...setup,
    trusted: true,
  });
  assert.doesNotMatch(trusted.join("\n"), /trusted:/);
});
