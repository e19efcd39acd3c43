import assert from "node:assert/strict";
import {
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  launchOf,
  mcpLogFile,
} from "./launch.ts";

const ctx = {
  cwd: "/work/project",
  env: {
    PATH: "/usr/bin",
    HOME: "/home/ada",
    LANG: "C.UTF-8",
    OPENAI_API_KEY: "sk-secret",
    GEM_HOME: "/gems",
    BASH_FUNC_x: "() { echo; }",
    TZ: "() { evil; }",
  },
};

Deno.test("launchOf() gives a stdio server the default variables, env_vars and env, nothing else", () => {
  const launch = launchOf("docs", {
    command: "npx",
    args: ["-y", "docs-server"],
    env_vars: ["GEM_HOME", "NOT_SET"],
    env: { LANG: "en_US.UTF-8", TOKEN: "t" },
  }, ctx);
  assert.deepEqual(launch.target, {
    transport: "stdio",
    command: "npx",
    args: ["-y", "docs-server"],
    env: {
      PATH: "/usr/bin",
      HOME: "/home/ada",
      LANG: "en_US.UTF-8",
      GEM_HOME: "/gems",
      TOKEN: "t",
    },
    cwd: "/work/project",
  });
  assert.equal(launch.display, "npx -y docs-server");
});

Deno.test("launchOf() resolves cwd against the session's and reads both timeout spellings", () => {
  const rel = launchOf("a", { command: "x", cwd: "tools", startup_timeout_ms: 1500 }, ctx);
  assert.equal(rel.target.transport === "stdio" && rel.target.cwd, "/work/project/tools");
  assert.equal(rel.startupTimeoutMs, 1500);
  assert.equal(rel.toolTimeoutMs, DEFAULT_TOOL_TIMEOUT_MS);
  const abs = launchOf("b", { command: "x", cwd: "/srv", startup_timeout_sec: 2.5 }, ctx);
  assert.equal(abs.target.transport === "stdio" && abs.target.cwd, "/srv");
  assert.equal(abs.startupTimeoutMs, 2500);
  const plain = launchOf("c", { command: "x", tool_timeout_sec: 0.5, required: true }, ctx);
  assert.equal(plain.startupTimeoutMs, DEFAULT_STARTUP_TIMEOUT_MS);
  assert.equal(plain.toolTimeoutMs, 500);
  assert.equal(plain.required, true);
});

Deno.test("launchOf() applies enabled_tools first, then disabled_tools", () => {
  const both = launchOf("a", {
    command: "x",
    enabled_tools: ["read", "write"],
    disabled_tools: ["write", "read_all"],
  }, ctx);
  assert.deepEqual(["read", "write", "read_all", "other"].filter(both.offers), ["read"]);
  const deny = launchOf("b", { command: "x", disabled_tools: ["write"] }, ctx);
  assert.deepEqual(["read", "write"].filter(deny.offers), ["read"]);
});

Deno.test("launchOf() sends an HTTP server its headers, from the config and the environment", () => {
  const launch = launchOf("remote", {
    url: "https://mcp.example.com/mcp",
    http_headers: { "X-Team": "blue" },
    env_http_headers: { "X-Home": "HOME", "X-Unset": "NOT_SET" },
    bearer_token_env_var: "GEM_HOME",
  }, ctx);
  assert.deepEqual(launch.target, {
    transport: "streamable_http",
    url: "https://mcp.example.com/mcp",
    headers: { "X-Team": "blue", "X-Home": "/home/ada", Authorization: "Bearer /gems" },
  });
  assert.equal(launch.display, "https://mcp.example.com/mcp");
});

Deno.test("launchOf() names a bearer token variable that is not set", () => {
  const launch = launchOf("remote", {
    url: "https://mcp.example.com/mcp",
    bearer_token_env_var: "REMOTE_TOKEN",
  }, ctx);
  assert.deepEqual(launch.target, {
    transport: "streamable_http",
    problem: "the environment variable REMOTE_TOKEN (bearer_token_env_var of " +
      "[mcp_servers.remote]) is not set",
  });
});

Deno.test("mcpLogFile() is <home>/logs/mcp-<id>.log with the id made safe for a file name", () => {
  assert.equal(mcpLogFile("/h", "docs"), "/h/logs/mcp-docs.log");
  assert.equal(mcpLogFile("/h", "a/b c"), "/h/logs/mcp-a_b_c.log");
});
