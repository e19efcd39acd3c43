import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { webFetch } from "./web_fetch.ts";
import { fetchAt, isAllowedHost, parseHostEntry, type WebFetchNet } from "./_fetch_guard.ts";
import { tempWorkspace } from "./_test_workspace.ts";

const SECRET = "the-secret-of-the-local-server";

/** A server on 127.0.0.1 holding a secret, counting the requests it gets per path. */
async function withSecretServer(
  body: (port: number, hits: Map<string, number>) => Promise<void>,
): Promise<void> {
  const hits = new Map<string, number>();
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen() {},
  }, (req): Response => {
    const url = new URL(req.url);
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const port = server.addr.port;
    if (url.pathname === "/secret") return new Response(SECRET);
    if (url.pathname === "/host") return new Response(req.headers.get("host"));
    if (url.pathname === "/to-loopback") {
      return Response.redirect(`http://127.0.0.1:${port}/secret`, 302);
    }
    if (url.pathname === "/to-name") return Response.redirect(`http://intranet.test:${port}/`, 307);
    if (url.pathname === "/to-file") return Response.redirect("file:///etc/passwd", 302);
    if (url.pathname === "/loop") return Response.redirect(`http://localhost:${port}/loop`, 301);
    return new Response("nope", { status: 404 });
  });
  try {
    await body(server.addr.port, hits);
  } finally {
    await server.shutdown();
  }
}

/** The names the fake resolver knows; anything else does not resolve. */
const NAMES: Record<string, string[]> = {
  "intranet.test": ["127.0.0.1"],
  "dual.test": ["93.184.215.14", "::1"],
  "metadata.test": ["169.254.169.254"],
  "private.test": ["10.0.0.7"],
  "mapped.test": ["::ffff:127.0.0.1"],
};

function fakeLookup(host: string): Promise<string[]> {
  const found = NAMES[host];
  return found
    ? Promise.resolve(found)
    : Promise.reject(new Error(`getaddrinfo ENOTFOUND ${host}`));
}

async function fetchWith(net: WebFetchNet, url: string) {
  await using ws = await tempWorkspace();
  ws.ctx.networkAllowed = true;
  ws.ctx.webFetch = { lookup: fakeLookup, ...net };
  return await webFetch.run({ url }, ws.ctx);
}

async function refusal(net: WebFetchNet, url: string): Promise<ToolError> {
  let caught: unknown;
  await fetchWith(net, url).catch((err) => caught = err);
  assert.ok(caught instanceof ToolError, `${url} was not refused: ${caught}`);
  return caught;
}

const total = (hits: Map<string, number>) => [...hits.values()].reduce((a, b) => a + b, 0);

Deno.test("webFetch() refuses every spelling of this machine and never reaches it", async () => {
  await withSecretServer(async (port, hits) => {
    const spellings = [
      "127.0.0.1",
      "localhost",
      "LOCALHOST.",
      "app.localhost",
      "[::ffff:127.0.0.1]",
      "2130706433",
      "0177.0.0.1",
      "0x7f.1",
      "127.1",
      "[::1]",
      "0.0.0.0",
      "[::]",
    ];
    for (const host of spellings) {
      const err = await refusal({ allowedHosts: ["example.com"] }, `http://${host}:${port}/secret`);
      assert.match(err.message, /^Refusing to fetch "http:\/\/[^"]+\/secret": /, host);
      assert.match(err.hint ?? "", /allowed_hosts = \[".+"\] under \[web_fetch\]/, host);
    }
    assert.equal(total(hits), 0, "the server was never asked");
    const localhost = await refusal({}, `http://localhost:${port}/secret`);
    assert.equal(
      localhost.message,
      `Refusing to fetch "http://localhost:${port}/secret": ` +
        `"localhost" names this machine, a loopback address`,
    );
    assert.match(localhost.hint ?? "", new RegExp(`allowed_hosts = \\["localhost:${port}"\\]`));
    const mapped = await refusal({}, `http://[::ffff:127.0.0.1]:${port}/secret`);
    assert.equal(
      mapped.message,
      `Refusing to fetch "http://[::ffff:7f00:1]:${port}/secret": ` +
        "::ffff:7f00:1 is the IPv4-mapped form of 127.0.0.1, a loopback address",
    );
    const decimal = await refusal({}, `http://2130706433:${port}/secret`);
    assert.equal(
      decimal.message,
      `Refusing to fetch "http://127.0.0.1:${port}/secret": 127.0.0.1 is a loopback address`,
    );
  });
});

Deno.test("webFetch() refuses a name that resolves to a local or private address", async () => {
  await withSecretServer(async (port, hits) => {
    const intranet = await refusal({}, `http://intranet.test:${port}/secret`);
    assert.equal(
      intranet.message,
      `Refusing to fetch "http://intranet.test:${port}/secret": ` +
        `"intranet.test" resolves to 127.0.0.1, a loopback address`,
    );
    const cases: Array<[string, RegExp]> = [
      ["dual.test", /"dual\.test" resolves to ::1, the IPv6 loopback address$/],
      ["metadata.test", /resolves to 169\.254\.169\.254, a cloud metadata address$/],
      ["private.test", /resolves to 10\.0\.0\.7, a private address$/],
      ["mapped.test", /resolves to ::ffff:127\.0\.0\.1, the IPv4-mapped form of 127\.0\.0\.1/],
    ];
    for (const [name, message] of cases) {
      const err = await refusal({}, `http://${name}:${port}/secret`);
      assert.match(err.message, message, name);
    }
    const unknown = await refusal({}, `http://nowhere.test:${port}/`);
    assert.match(unknown.message, /cannot resolve "nowhere\.test": getaddrinfo ENOTFOUND/);
    assert.equal(total(hits), 0);
  });
});

Deno.test("webFetch() checks every redirect and refuses one to this machine", async () => {
  await withSecretServer(async (port, hits) => {
    const allowedHosts = [`localhost:${port}`];
    const err = await refusal({ allowedHosts }, `http://localhost:${port}/to-loopback`);
    assert.equal(
      err.message,
      `Refusing to fetch "http://127.0.0.1:${port}/secret" (redirected from ` +
        `"http://localhost:${port}/to-loopback"): 127.0.0.1 is a loopback address`,
    );
    const toName = await refusal({ allowedHosts }, `http://localhost:${port}/to-name`);
    assert.match(toName.message, /"intranet\.test" resolves to 127\.0\.0\.1/);
    const toFile = await refusal({ allowedHosts }, `http://localhost:${port}/to-file`);
    assert.match(toFile.message, /redirects to "file:\/\/\/etc\/passwd", not an http or https URL/);
    const loop = await refusal({ allowedHosts }, `http://localhost:${port}/loop`);
    assert.match(loop.message, /more than 10 redirects/);
    assert.equal(hits.get("/secret"), undefined, "the secret was never asked for");
    assert.equal(hits.get("/loop"), 11);
  });
});

Deno.test("webFetch() reaches a host listed in allowed_hosts (control)", async () => {
  await withSecretServer(async (port) => {
    const byAddress = await fetchWith(
      { allowedHosts: [`127.0.0.1:${port}`] },
      `http://127.0.0.1:${port}/secret`,
    );
    assert.equal(byAddress.content, SECRET);
    const byName = await fetchWith(
      { allowedHosts: ["localhost"] },
      `http://localhost:${port}/host`,
    );
    assert.equal(byName.content, `localhost:${port}`);
    const redirected = await fetchWith(
      { allowedHosts: ["localhost", "2130706433"] },
      `http://localhost:${port}/to-loopback`,
    );
    assert.equal(redirected.content, SECRET);
    assert.equal(redirected.finalUrl, `http://127.0.0.1:${port}/secret`);
    const otherPort = await refusal(
      { allowedHosts: [`127.0.0.1:${port + 1}`] },
      `http://127.0.0.1:${port}/secret`,
    );
    assert.match(otherPort.message, /a loopback address/);
  });
});

Deno.test("fetchAt() connects to the checked address whatever the name resolves to", async () => {
  await withSecretServer(async (port) => {
    const url = new URL(`http://no-such-name.invalid:${port}/host`);
    const sent = await fetchAt(url, "127.0.0.1", {});
    try {
      assert.equal(await sent.response.text(), `no-such-name.invalid:${port}`);
    } finally {
      sent.close();
    }
  });
});

Deno.test("isAllowedHost() matches hosts as URLs spell them, with or without a port", () => {
  const url = (text: string) => new URL(text);
  assert.equal(isAllowedHost(url("http://127.0.0.1/"), ["2130706433"]), true);
  assert.equal(isAllowedHost(url("http://[::1]:8080/"), ["::1"]), true);
  assert.equal(isAllowedHost(url("http://[::1]:8080/"), ["[::1]:8080"]), true);
  assert.equal(isAllowedHost(url("http://[::1]:8081/"), ["[::1]:8080"]), false);
  assert.equal(isAllowedHost(url("http://wiki.corp/"), ["WIKI.corp:80"]), true);
  assert.equal(isAllowedHost(url("https://wiki.corp/"), ["wiki.corp:80"]), false);
  assert.equal(isAllowedHost(url("https://wiki.corp./"), ["wiki.corp:443"]), true);
  assert.equal(isAllowedHost(url("http://evil.wiki.corp/"), ["wiki.corp"]), false);
  assert.deepEqual(parseHostEntry("localhost:08080"), { hostname: "localhost", port: "8080" });
  for (const bad of ["http://x/", "a/b", "user@host", "a b"]) {
    assert.equal(parseHostEntry(bad), undefined, bad);
  }
});
