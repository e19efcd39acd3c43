import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { CodedToolError } from "./_coded_error.ts";
import { fakeMcpHub, type FakeMcpServer } from "./_test_mcp_hub.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { formatFileSize, mcpListResources, mcpReadResource } from "./mcp_resources.ts";

const PNG = btoa(String.fromCharCode(0x89, 0x50, 0x4e, 0x47, 1, 2, 3));

const SERVERS: FakeMcpServer[] = [
  {
    id: "docs",
    resources: [
      {
        uri: "docs://guide",
        name: "guide",
        mimeType: "text/markdown",
        contents: [{ uri: "docs://guide", mimeType: "text/markdown", text: "# Guide" }],
      },
      {
        uri: "docs://logo",
        name: "logo",
        description: "The logo",
        mimeType: "image/png",
        contents: [{ uri: "docs://logo", mimeType: "image/png", blob: PNG }],
      },
    ],
  },
  { id: "empty" },
  { id: "slow", status: "starting" },
  { id: "broken", status: "failed", reason: "exited with code 1" },
];

async function workspace(servers = SERVERS) {
  const ws = await tempWorkspace();
  const hub = fakeMcpHub(servers);
  ws.ctx.mcp = hub;
  return Object.assign(ws, { hub });
}

/** The coded error `run` throws. */
async function codedError(run: () => Promise<unknown>): Promise<CodedToolError> {
  const error = await run().then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof CodedToolError, `expected a coded tool error, got ${error}`);
  return error;
}

Deno.test("mcp.list_resources lists every ready server's resources, server last, and Codex's JSON", async () => {
  await using ws = await workspace();
  const out = await mcpListResources.run({}, ws.ctx);
  assert.equal(out.count, 2);
  assert.equal(out.server, undefined);
  assert.deepEqual(Object.keys(out.resources[1]), [
    "uri",
    "name",
    "description",
    "mimeType",
    "server",
  ]);
  assert.deepEqual(JSON.parse(out.json), {
    resources: out.resources.map(({ server, ...rest }) => ({ server, ...rest })),
  });
  assert.ok(out.json.startsWith('{"resources":[{"server":"docs","uri":"docs://guide"'));
  assert.deepEqual(ws.hub.calls, ["resources/list *"]);
});

Deno.test("mcp.list_resources lists one server when named (blank means all)", async () => {
  await using ws = await workspace();
  const one = await mcpListResources.run({ server: " empty " }, ws.ctx);
  assert.deepEqual(one, {
    server: "empty",
    resources: [],
    count: 0,
    json: '{"server":"empty","resources":[]}',
  });
  assert.equal((await mcpListResources.run({ server: "  " }, ws.ctx)).count, 2);
  assert.deepEqual(ws.hub.calls, ["resources/list empty", "resources/list *"]);
});

Deno.test("mcp.list_resources: an unknown server is an error listing the real ones", async () => {
  await using ws = await workspace();
  const error = await codedError(() => mcpListResources.run({ server: "doc" }, ws.ctx));
  assert.equal(error.code, "unknown_server");
  assert.equal(
    error.message,
    'Server "doc" not found. Available servers: docs, empty, slow, broken',
  );
  assert.deepEqual(ws.hub.calls, [], "the hub is not asked");
});

Deno.test("mcp resource tools: a failed server or one needing a login says so; a starting one is asked", async () => {
  await using ws = await workspace([...SERVERS, { id: "web", status: "needs_login" }]);
  const failed = await codedError(() =>
    mcpReadResource.run({ server: "broken", uri: "x://y" }, ws.ctx)
  );
  assert.equal(failed.code, "server_not_ready");
  assert.equal(failed.message, 'Server "broken" is not connected: it failed (exited with code 1)');
  assert.equal(failed.hint, "Its resources are not available in this session; go on without them");
  assert.deepEqual(failed.fields, {
    server: "broken",
    status: "failed",
    reason: "exited with code 1",
  });
  const login = await codedError(() => mcpListResources.run({ server: "web" }, ws.ctx));
  assert.equal(login.message, 'Server "web" is not connected: it needs a login');
  assert.deepEqual(ws.hub.calls, [], "neither is asked");
  // The real hub waits for a starting server; this one answers at once that it is starting.
  const starting = await codedError(() => mcpListResources.run({ server: "slow" }, ws.ctx));
  assert.equal(starting.code, "request_failed");
  assert.equal(starting.message, 'resources/list failed: MCP server "slow" is starting');
  assert.deepEqual(ws.hub.calls, ["resources/list slow"]);
});

Deno.test("mcp.read_resource returns text parts, Codex's JSON and the plain text", async () => {
  await using ws = await workspace();
  const out = await mcpReadResource.run({ server: "docs", uri: "docs://guide" }, ws.ctx);
  const contents = [{ uri: "docs://guide", mimeType: "text/markdown", text: "# Guide" }];
  assert.deepEqual(out, {
    server: "docs",
    uri: "docs://guide",
    contents,
    text: "# Guide",
    json: JSON.stringify({ server: "docs", uri: "docs://guide", contents }),
  });
});

Deno.test("mcp.read_resource keeps a blob as base64, or saves it to a file with save_blobs", async () => {
  await using ws = await workspace();
  const inline = await mcpReadResource.run({ server: "docs", uri: "docs://logo" }, ws.ctx);
  assert.deepEqual(inline.contents, [{ uri: "docs://logo", mimeType: "image/png", blob: PNG }]);
  assert.equal(inline.text, "");
  const saved = await mcpReadResource.run(
    { server: "docs", uri: "docs://logo", save_blobs: true },
    ws.ctx,
  );
  const [part] = saved.contents;
  assert.equal(part.blob, undefined);
  assert.match(part.blobSavedTo!, /\/mcp-resource-\d+-0-[0-9a-f]{6}\.png$/);
  assert.deepEqual(
    await Deno.readFile(part.blobSavedTo!),
    Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0)),
  );
  assert.equal(
    part.text,
    `[Resource from docs at docs://logo] Binary content (image/png, 7 bytes) saved to ${part.blobSavedTo}`,
  );
  assert.equal(saved.text, part.text);
});

Deno.test("mcp.read_resource: a URI the server does not have is an error the model can act on", async () => {
  await using ws = await workspace();
  const error = await codedError(() =>
    mcpReadResource.run({ server: "docs", uri: "docs://nope" }, ws.ctx)
  );
  assert.equal(error.code, "request_failed");
  assert.equal(
    error.message,
    "resources/read failed: MCP error -32002: Resource not found: docs://nope",
  );
  assert.equal(error.hint, "Read only URIs the server lists, exactly as listed");
  assert.equal(error.fields.method, "resources/read");
});

Deno.test("mcp resource tools without a hub: no servers, an empty list, a clear error", async () => {
  await using ws = await tempWorkspace();
  assert.equal((await mcpListResources.run({}, ws.ctx)).count, 0);
  const error = await codedError(() => mcpReadResource.run({ server: "docs", uri: "a" }, ws.ctx));
  assert.equal(error.message, 'Server "docs" not found. Available servers: (none)');
  assert.equal(error.hint, "This session has no MCP servers; go on without them");
});

Deno.test("mcp.read_resource: a cancelled call rethrows the hub's error as it is", async () => {
  await using ws = await workspace();
  const controller = new AbortController();
  const abort = new DOMException("stopped", "AbortError");
  ws.ctx.signal = controller.signal;
  ws.ctx.mcp = {
    ...ws.hub,
    readResource: () => (controller.abort(), Promise.reject(abort)),
  };
  const error = await mcpReadResource.run({ server: "docs", uri: "docs://guide" }, ws.ctx)
    .then(() => undefined, (e: unknown) => e);
  assert.equal(error, abort);
  assert.ok(!(error instanceof ToolError));
});

Deno.test("mcp.read_resource's input needs a server and a URI", () => {
  assert.equal(mcpReadResource.input.safeParse({ server: "docs" }).success, false);
  assert.equal(mcpReadResource.input.safeParse({ server: " ", uri: "a" }).success, false);
  assert.deepEqual(mcpReadResource.input.parse({ server: " docs ", uri: "a " }), {
    server: "docs",
    uri: "a",
  });
});

Deno.test("formatFileSize() words sizes as Claude Code does", () => {
  assert.equal(formatFileSize(0), "0 bytes");
  assert.equal(formatFileSize(1023), "1023 bytes");
  assert.equal(formatFileSize(1024), "1KB");
  assert.equal(formatFileSize(1536), "1.5KB");
  assert.equal(formatFileSize(3 * 1024 * 1024), "3MB");
  assert.equal(formatFileSize(5 * 1024 ** 4), "5120GB");
});
