import assert from "node:assert/strict";
import { mapServer, serversOf } from "./map.ts";

Deno.test("mapServer() maps Claude Code's stdio and http entries and skips what we cannot run", () => {
  assert.deepEqual(
    mapServer("claude", {
      command: "npx",
      args: ["-y", "fs-mcp"],
      env: { ROOT: "${PROJ:-.}" },
      timeout: 90000,
    }),
    {
      entry: {
        command: "npx",
        args: ["-y", "fs-mcp"],
        env: { ROOT: "${PROJ:-.}" },
        tool_timeout_sec: 90,
      },
      notes: [],
    },
  );
  assert.deepEqual(
    mapServer("claude", { type: "http", url: "https://h/mcp", headers: { A: "Bearer ${K}" } }),
    { entry: { url: "https://h/mcp", http_headers: { A: "Bearer ${K}" } }, notes: [] },
  );
  const skipped = (raw: unknown) => {
    const mapped = mapServer("claude", raw);
    assert.ok("skip" in mapped, JSON.stringify(raw));
    return mapped.skip;
  };
  assert.match(skipped({ url: "https://h/mcp" }), /"url" but no "type": add "type": "http"/);
  assert.match(skipped({ type: "sse", url: "https://h/sse" }), /SSE transport.*streamable HTTP/);
  assert.match(skipped({ type: "ws", url: "wss://h" }), /"ws" is not supported/);
  assert.match(skipped({ args: ["x"] }), /no "command".*fix the file/);
  assert.match(skipped({ command: "x", args: "y" }), /"args" must be a list of strings/);
  assert.match(skipped("npx"), /not an object/);
});

Deno.test("mapServer() maps Gemini CLI's and Qwen Code's mcpServers, httpUrl before url before command", () => {
  assert.deepEqual(
    mapServer("gemini", {
      command: "python",
      args: ["srv.py"],
      cwd: "./srv",
      env: { KEY: "$KEY" },
      timeout: 30000,
      includeTools: ["a", "b"],
      excludeTools: ["b"],
      trust: true,
    }),
    {
      entry: {
        command: "python",
        args: ["srv.py"],
        env: { KEY: "$KEY" },
        cwd: "./srv",
        tool_timeout_sec: 30,
        enabled_tools: ["a", "b"],
        disabled_tools: ["b"],
      },
      notes: ['"trust": true is ignored: its tools are approved under your approval policy'],
    },
  );
  const http = mapServer("gemini", {
    httpUrl: "https://h/mcp",
    url: "https://h/sse",
    command: "x",
  });
  assert.deepEqual(http, { entry: { url: "https://h/mcp" }, notes: [] });
  assert.deepEqual(mapServer("gemini", { url: "https://h/mcp" }), {
    entry: { url: "https://h/mcp" },
    notes: [],
  });
  assert.ok("skip" in mapServer("gemini", { url: "https://h/sse", type: "sse" }));
  const qwen = mapServer("qwen", { url: "https://h/sse", discoveryTimeoutMs: 5000 });
  assert.ok("skip" in qwen && /SSE endpoint.*"httpUrl"/.test(qwen.skip));
  assert.deepEqual(mapServer("qwen", { url: "https://h/mcp", type: "http" }), {
    entry: { url: "https://h/mcp" },
    notes: [],
  });
});

Deno.test("mapServer() maps opencode's local and remote entries and Cursor's", () => {
  assert.deepEqual(
    mapServer("opencode", {
      type: "local",
      command: ["bun", "x", "my-mcp"],
      environment: { A: "{env:A}" },
      enabled: false,
      timeout: 5000,
    }),
    {
      entry: {
        command: "bun",
        args: ["x", "my-mcp"],
        env: { A: "{env:A}" },
        startup_timeout_ms: 5000,
        enabled: false,
      },
      notes: [],
    },
  );
  assert.deepEqual(
    mapServer("opencode", { type: "remote", url: "https://h/mcp", headers: { K: "v" } }),
    { entry: { url: "https://h/mcp", http_headers: { K: "v" } }, notes: [] },
  );
  assert.ok("skip" in mapServer("opencode", { type: "local", command: "bun x" }));
  assert.deepEqual(mapServer("cursor", { command: "node", args: ["${workspaceFolder}/s.js"] }), {
    entry: { command: "node", args: ["${workspaceFolder}/s.js"] },
    notes: [],
  });
  assert.deepEqual(mapServer("cursor", { url: "https://h/mcp" }), {
    entry: { url: "https://h/mcp" },
    notes: [],
  });
});

Deno.test("serversOf() finds each vendor's servers; ~/.claude.json's project ones come first", () => {
  const claudeJson = {
    mcpServers: { a: { command: "user" } },
    projects: { "/repo": { mcpServers: { a: { command: "local" } } } },
  };
  assert.deepEqual(serversOf("claude", claudeJson, ["/repo"]), [
    { a: { command: "local" } },
    { a: { command: "user" } },
  ]);
  assert.deepEqual(serversOf("opencode", { mcp: { s: {} } }), [{ s: {} }]);
  assert.deepEqual(serversOf("gemini", { mcpServers: [] }), [{}]);
  assert.deepEqual(serversOf("cursor", "text"), []);
});
