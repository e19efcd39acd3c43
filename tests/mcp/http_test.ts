/**
 * A streamable-HTTP MCP server built with the official SDK on 127.0.0.1: its tool is called with
 * the configured headers (`http_headers`, `env_http_headers`, `bearer_token_env_var`), its
 * structured content comes back as JSON text, and its resources and prompts reach the hub. A
 * server that answers 401 needs a login; a bearer token variable that is unset fails the start.
 */
import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import * as z from "zod";
import { McpServers } from "../../lib/mcp/mcp_servers.ts";
import type { ToolContext } from "../../lib/tools/types.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";

/** A fresh SDK server for one request (the transport's stateless mode). */
function sdkServer(): McpServer {
  const server = new McpServer({ name: "http-test", version: "1.0.0" });
  server.registerTool("add", {
    description: "Adds two numbers",
    inputSchema: { a: z.number(), b: z.number() },
    annotations: { readOnlyHint: true },
  }, ({ a, b }) => ({
    content: [{ type: "text", text: `The sum is ${a + b}` }],
    structuredContent: { sum: a + b },
  }));
  server.registerResource("motto", "memo://motto", { mimeType: "text/plain" }, (uri) => ({
    contents: [{ uri: uri.href, text: "slow and steady" }],
  }));
  server.registerPrompt("greet", {
    description: "Greets someone",
    argsSchema: { name: z.string() },
  }, ({ name }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Say hello to ${name}` } }],
  }));
  return server;
}

function serve(seen: Headers[]) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push(req.headers);
    if (new URL(req.url).pathname === "/locked") {
      return new Response("sign in first", { status: 401 });
    }
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    await sdkServer().connect(transport);
    return await transport.handleRequest(req);
  });
}

Deno.test("a streamable-HTTP server is reached with its headers, and its tools, resources and prompts work", async () => {
  const seen: Headers[] = [];
  await using http = serve(seen);
  const url = `http://127.0.0.1:${http.addr.port}/mcp`;
  const warnings: string[] = [];
  await using servers = new McpServers({
    remote: {
      url,
      http_headers: { "X-Team": "blue" },
      env_http_headers: { "X-Key": "TEAM_KEY", "X-Unset": "NOT_SET" },
      bearer_token_env_var: "MCP_TOKEN",
    },
    locked: { url: `http://127.0.0.1:${http.addr.port}/locked` },
    tokenless: { url, bearer_token_env_var: "NO_SUCH_TOKEN" },
    refused: {
      url: `http://127.0.0.1:${http.addr.port}/locked`,
      bearer_token_env_var: "MCP_TOKEN",
    },
  }, {
    home: "/nonexistent-home",
    env: { TEAM_KEY: "k-1", MCP_TOKEN: "t0k" },
    cwd: "/",
    warn: (m) => warnings.push(m),
  });
  const signal = new AbortController().signal;
  const [add] = await servers.sources[0].tools(signal);
  assert.deepEqual(
    { name: add.name, kind: add.kind, mutates: add.mutates },
    { name: "add", kind: "read", mutates: false },
  );
  const ctx: ToolContext = {
    cwd: "/",
    signal,
    env: {},
    state: new Map(),
    fs: inProcessFs,
    callId: "c1",
    progress() {},
  };
  assert.deepEqual(await add.run({ a: 2, b: 3 }, ctx), {
    text: 'The sum is 5\n{"sum":5}',
    answer: {
      content: [{ type: "text", text: "The sum is 5" }],
      structuredContent: { sum: 5 },
    },
  });
  const headers = seen[0];
  assert.equal(headers.get("x-team"), "blue");
  assert.equal(headers.get("x-key"), "k-1");
  assert.equal(headers.get("x-unset"), null);
  assert.equal(headers.get("authorization"), "Bearer t0k");

  assert.deepEqual(await servers.listResources(undefined, signal), [
    { server: "remote", uri: "memo://motto", name: "motto", mimeType: "text/plain" },
  ]);
  assert.deepEqual(await servers.readResource("remote", "memo://motto", signal), [
    { uri: "memo://motto", text: "slow and steady" },
  ]);
  const prompts = await servers.listPrompts(signal);
  assert.deepEqual(prompts, [{
    server: "remote",
    name: "greet",
    description: "Greets someone",
    arguments: [{ name: "name", required: true }],
  }]);
  assert.equal(
    await servers.getPrompt("remote", "greet", { name: "Ada" }, signal),
    "Say hello to Ada",
  );
  await assert.rejects(
    servers.readResource("nope", "x", signal),
    /No MCP server "nope" is configured/,
  );

  const views = Object.fromEntries(servers.servers().map((v) => [v.id, v]));
  assert.equal(views.remote.transport, "streamable_http");
  assert.equal(views.remote.target, url);
  assert.deepEqual(views.remote.tools.map((t) => t.name), ["add"]);
  assert.equal(views.locked.status, "needs_login");
  assert.equal(views.locked.reason, 'It needs a login: run "interpreter mcp login locked"');
  assert.equal(views.tokenless.status, "failed");
  assert.equal(
    views.tokenless.reason,
    "Cannot start it: the environment variable NO_SUCH_TOKEN (bearer_token_env_var of " +
      "[mcp_servers.tokenless]) is not set",
  );
  await assert.rejects(
    servers.readResource("locked", "x", signal),
    /is not available: It needs a login/,
  );
  assert.equal(views.refused.status, "failed");
  assert.match(views.refused.reason!, /^It refused the token it was given \(HTTP 401\)/);
  assert.equal(warnings.length, 3, warnings.join("\n"));
});
