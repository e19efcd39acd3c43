/**
 * A stdio MCP server built with the official SDK, for the fault tests:
 *
 *   deno run -A tests/mcp/_test_server.ts MODE DIR
 *
 * `crash_once`: its tool `boom` exits the process the first time it is called (it leaves
 * `DIR/crashed` behind), and answers "survived" in a process started after that.
 * `crash_always`: `boom` exits the process on every call.
 * `hang`: reads its stdin and never answers anything, not even `initialize`.
 * `hang_children`: starts three helpers (two `sleep`s and a shell that ignores SIGTERM, with its
 * own `sleep`), writes `{"pid", "children"}` to `DIR/pids.json`, and never answers nor exits,
 * not even when its stdin closes.
 * `plain`: `boom` answers "survived".
 * `outputs`: `boom` as in `crash_once`, and large answers: the tool `big_text` answers 5 MB of
 * text (`HEAD`, `a`s, `TAIL`), `pictures` two 80 KB PNG images, and the resources
 * `test://big` (5 MB, as `big_text`) and `test://small` ("a small resource") read as text.
 * `echo`: `boom` as in `plain`; `echo` answers `echo: TEXT` with `{"echoed": TEXT}` as structured
 * content, and `refuse` answers an error result ("refused: TEXT"); both are read-only.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { join } from "node:path";
import * as z from "zod";

const [mode, dir] = Deno.args;

if (mode === "hang_children") {
  const helpers = [["sleep", "600"], ["sleep", "600"], ["sh", "-c", "trap '' TERM; sleep 600"]];
  const children = helpers.map(([command, ...args]) =>
    new Deno.Command(command, { args, stdin: "null" }).spawn().pid
  );
  Deno.writeTextFileSync(join(dir, "pids.json"), JSON.stringify({ pid: Deno.pid, children }));
  setInterval(() => {}, 60_000);
  for await (const _ of Deno.stdin.readable) {
    // Read and ignore every request; stay when stdin closes.
  }
  await new Promise(() => {}); // the interval keeps the process alive
}

if (mode === "hang") {
  for await (const _ of Deno.stdin.readable) {
    // Read and ignore every request until the client closes stdin.
  }
  Deno.exit(0);
}

const server = new McpServer({ name: "test-server", version: "1.0.0" });
server.registerTool("boom", { description: "Exits the process, or says it survived" }, () => {
  const marker = join(dir, "crashed");
  let crashedBefore = true;
  try {
    Deno.statSync(marker);
  } catch {
    crashedBefore = false;
  }
  const once = mode === "crash_once" || mode === "outputs";
  if (mode === "crash_always" || (once && !crashedBefore)) {
    Deno.writeTextFileSync(marker, "");
    Deno.stderr.writeSync(new TextEncoder().encode("test server: exiting on purpose\n"));
    Deno.exit(3);
  }
  return { content: [{ type: "text", text: "survived" }] };
});
if (mode === "outputs") addOutputs(server);
if (mode === "echo") addEcho(server);
await server.connect(new StdioServerTransport());

/** The tools of mode `echo`. */
function addEcho(mcp: McpServer): void {
  const schema = { inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } };
  mcp.registerTool("echo", { description: "Echoes the text", ...schema }, ({ text }) => ({
    content: [{ type: "text", text: `echo: ${text}` }],
    structuredContent: { echoed: text },
  }));
  mcp.registerTool("refuse", { description: "Answers an error", ...schema }, ({ text }) => ({
    content: [{ type: "text", text: `refused: ${text}` }],
    isError: true,
  }));
}

/** The tools and resources of mode `outputs`. */
function addOutputs(mcp: McpServer): void {
  const big = `HEAD${"a".repeat(5 * 1024 * 1024)}TAIL`;
  mcp.registerTool("big_text", { description: "Answers 5 MB of text" }, () => ({
    content: [{ type: "text", text: big }],
  }));
  const png = btoa("\x89PNG" + "p".repeat(80_000));
  mcp.registerTool("pictures", { description: "Answers two images" }, () => ({
    content: [
      { type: "image", data: png, mimeType: "image/png" },
      { type: "image", data: png, mimeType: "image/png" },
    ],
  }));
  for (const [name, text] of [["big", big], ["small", "a small resource"]]) {
    const uri = `test://${name}`;
    mcp.registerResource(name, uri, { mimeType: "text/plain" }, () => ({
      contents: [{ uri, mimeType: "text/plain", text }],
    }));
  }
}
