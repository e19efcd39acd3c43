import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { MAX_FETCH_BYTES, webFetch, webFetchInput } from "./web_fetch.ts";
import { htmlToText } from "./_html_text.ts";
import { tempWorkspace } from "./_test_workspace.ts";

const PAGE = `<!doctype html><html><head><title>Docs &amp; Notes</title>
<style>body { color: red }</style><script>alert("x")</script></head>
<body><nav><a href="/home">Home</a></nav>
<h1>Install</h1><p>Run <code>npm i</code> then read <a href="https://example.com/guide">the guide</a>.</p>
<ul><li>one</li><li>two &lt;b&gt;</li></ul>
<pre>line 1
  line 2</pre>
<!-- hidden comment --><noscript>enable js</noscript></body></html>`;

/** A response that comes after 3 s, or as soon as the client gives up. */
function late(signal: AbortSignal): Promise<Response> {
  return new Promise((res) => {
    const timer = setTimeout(() => res(new Response("late")), 3000);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      res(new Response("late"));
    });
  });
}

/** Serves a few fixed routes on 127.0.0.1 for the duration of `body`. */
async function withServer(body: (base: string) => Promise<void>): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/page") return new Response(PAGE, { headers: { "content-type": "text/html" } });
    if (path === "/plain") {
      return new Response("just text\n", { headers: { "content-type": "text/plain" } });
    }
    if (path === "/moved") return Response.redirect(new URL("/plain", req.url), 302);
    if (path === "/big") return new Response("x".repeat(MAX_FETCH_BYTES + 10));
    if (path === "/image") {
      return new Response(new Uint8Array([0x89, 0x50]), {
        headers: { "content-type": "image/png" },
      });
    }
    if (path === "/slow") return late(req.signal);
    return new Response("nope", { status: 404, statusText: "Not Found" });
  });
  try {
    await body(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

/** A workspace with network access, where the test servers' 127.0.0.1 is an allowed host. */
async function networkWorkspace() {
  const ws = await tempWorkspace();
  ws.ctx.networkAllowed = true;
  ws.ctx.webFetch = { allowedHosts: ["127.0.0.1"] };
  return ws;
}

Deno.test("webFetch() refuses with a hint when the sandbox has no network", async () => {
  await using ws = await tempWorkspace();
  await assert.rejects(
    () => webFetch.run({ url: "http://127.0.0.1:1/" }, ws.ctx),
    (err) =>
      err instanceof ToolError &&
      err.message === "Web fetch is disabled: the sandbox has no network access" &&
      !!err.hint?.includes("-c sandbox_workspace_write.network_access=true"),
  );
});

Deno.test("webFetch() returns an HTML page as markdown, without scripts and styles", async () => {
  await using ws = await networkWorkspace();
  await withServer(async (base) => {
    const out = await webFetch.run({ url: `${base}/page`, prompt: "how to install?" }, ws.ctx);
    assert.equal(out.status, 200);
    assert.equal(out.format, "markdown");
    assert.equal(out.prompt, "how to install?");
    assert.equal(out.truncated, false);
    assert.equal(
      out.content,
      "Docs & Notes\n\n[Home](/home)\n\n# Install\n\n" +
        "Run `npm i` then read [the guide](https://example.com/guide).\n\n" +
        "- one\n- two <b>\n\n```\nline 1\n  line 2\n```",
    );
  });
});

Deno.test("webFetch() returns text, raw html, and follows redirects", async () => {
  await using ws = await networkWorkspace();
  await withServer(async (base) => {
    const text = await webFetch.run({ url: `${base}/page`, format: "text" }, ws.ctx);
    assert.match(text.content, /read the guide \(https:\/\/example\.com\/guide\)\./);
    assert.doesNotMatch(text.content, /alert|color: red|hidden comment|enable js/);
    const html = await webFetch.run({ url: `${base}/page`, format: "html" }, ws.ctx);
    assert.equal(html.content, PAGE);
    const moved = await webFetch.run({ url: `${base}/moved` }, ws.ctx);
    assert.equal(moved.content, "just text\n");
    assert.equal(moved.finalUrl, `${base}/plain`);
  });
});

Deno.test("webFetch() takes the URL from the prompt when none is given (Gemini)", async () => {
  await using ws = await networkWorkspace();
  await withServer(async (base) => {
    const out = await webFetch.run({ prompt: `Summarise ${base}/plain please` }, ws.ctx);
    assert.equal(out.url, `${base}/plain`);
    assert.equal(out.content, "just text\n");
  });
});

Deno.test("webFetch() caps the body and reports errors the model can act on", async () => {
  await using ws = await networkWorkspace();
  await withServer(async (base) => {
    const big = await webFetch.run({ url: `${base}/big`, format: "html" }, ws.ctx);
    assert.equal(big.bytes, MAX_FETCH_BYTES);
    assert.equal(big.truncated, true);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ url: `${base}/missing` }, /HTTP 404 Not Found/],
      [{ url: `${base}/image` }, /"image\/png", not text/],
      [{ url: `${base}/slow`, timeout_s: 0.2 }, /no complete response within 0.2 s/],
      [{ url: "ftp://example.com/x" }, /only http and https/],
      [{ url: "not a url" }, /not a valid URL/],
      [{ prompt: "no link here" }, /no URL given/],
    ];
    for (const [input, message] of cases) {
      await assert.rejects(
        () => webFetch.run(webFetchInput.parse(input), ws.ctx),
        (err) => err instanceof ToolError && message.test(err.message),
        JSON.stringify(input),
      );
    }
  });
});

Deno.test("htmlToText() keeps link text only for fragment links and decodes entities", async () => {
  const html = '<p><a href="#top">Top</a> &#x41;&#66;&nbsp;x &unknown; &lt;</p>';
  assert.equal(await htmlToText(html, "text"), "Top AB x &unknown; <");
});

const STRUCTURED = `<title>T</title><ul><li>one<ul><li>inner</li></ul></li></ul>
<ol start="9"><li>nine</li><li>ten</li></ol>
<table><thead><tr><th>name</th><th>a|b</th></tr></thead><tbody><tr><td>x</td><td>1</td></tr></tbody></table>
<pre>  indented
    more</pre>`;

Deno.test("htmlToText() keeps nesting, numbering, tables and preformatted text", async () => {
  assert.equal(
    await htmlToText(STRUCTURED, "markdown"),
    "T\n\n- one\n  - inner\n\n9. nine\n10. ten\n\n" +
      "| name | a\\|b |\n| --- | --- |\n| x | 1 |\n\n```\n  indented\n    more\n```",
  );
  assert.equal(
    await htmlToText(STRUCTURED, "text"),
    "T\n\n• one\n  • inner\n\n9. nine\n10. ten\n\nname | a|b\nx | 1\n\n  indented\n    more",
  );
});
