/**
 * Web fetch's reach: every URL, each redirect included, is checked before anything connects.
 * Names are resolved and every address checked; loopback, private, link-local and metadata
 * addresses are refused unless the host is listed in `web_fetch.allowed_hosts`.
 */
import { ToolError } from "../errors.ts";
import { blockedAddressReason, isIpLiteral, parseIpv4, unbracketed } from "./_net_address.ts";

/** What web fetch may reach beyond public addresses, and how it resolves names (a test seam). */
export interface WebFetchNet {
  /** `web_fetch.allowed_hosts`: host names or IP addresses, with `:port` for one port only. */
  allowedHosts?: readonly string[];
  /** A host name's IP addresses; the system resolver (`/etc/hosts`, then DNS) when absent. */
  lookup?: (host: string) => Promise<string[]>;
}

/** Redirects followed at most. */
const MAX_REDIRECTS = 10;

/** A response of a checked request; `close()` frees its connection once the body is read. */
export interface GuardedResponse {
  response: Response;
  /** The URL that answered, after redirects. */
  url: URL;
  close(): void;
}

/** Where a URL may be fetched: anywhere (an allowed host), or at these checked addresses only. */
type Route = { anywhere: true } | { anywhere: false; addresses: string[] };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches `url` with GET, following redirects one at a time: each URL is checked before it is
 * requested, so that no request reaches a refused address.
 */
export async function guardedFetch(
  url: URL,
  opts: { net: WebFetchNet; init: RequestInit },
): Promise<GuardedResponse> {
  let current = url;
  for (let hop = 0;; hop++) {
    const route = await routeFor(current, opts.net, hop === 0 ? undefined : url);
    const sent = await send(current, route, { ...opts.init, redirect: "manual" });
    const location = REDIRECT_STATUSES.has(sent.response.status)
      ? sent.response.headers.get("location")
      : null;
    if (location === null) return { ...sent, url: current };
    await sent.response.body?.cancel();
    sent.close();
    if (hop === MAX_REDIRECTS) {
      throw new ToolError(
        `Cannot fetch "${url.href}": more than ${MAX_REDIRECTS} redirects`,
        "Fetch the final URL directly",
      );
    }
    current = redirectTarget(current, location);
  }
}

/** The host name or address of `url` as checked: lowercase, no brackets, no final dot. */
function hostOf(url: URL): string {
  return unbracketed(url.hostname).toLowerCase().replace(/\.$/, "");
}

async function routeFor(url: URL, net: WebFetchNet, redirectedFrom?: URL): Promise<Route> {
  if (isAllowedHost(url, net.allowedHosts ?? [])) return { anywhere: true };
  const host = hostOf(url);
  const refuse = (why: string) => refusal(url, why, redirectedFrom);
  if (host === "localhost" || host.endsWith(".localhost")) {
    throw refuse(`"${host}" names this machine, a loopback address`);
  }
  if (isIpLiteral(host)) {
    const reason = blockedAddressReason(host);
    if (reason) throw refuse(`${host} is ${reason}`);
    return { anywhere: false, addresses: [host] };
  }
  const addresses = await resolve(host, url, net);
  for (const address of addresses) {
    const reason = blockedAddressReason(address);
    if (reason) throw refuse(`"${host}" resolves to ${address}, ${reason}`);
  }
  return { anywhere: false, addresses };
}

function refusal(url: URL, why: string, redirectedFrom: URL | undefined): ToolError {
  const from = redirectedFrom ? ` (redirected from "${redirectedFrom.href}")` : "";
  const entry = url.port ? `${url.hostname}:${url.port}` : url.hostname;
  return new ToolError(
    `Refusing to fetch "${url.href}"${from}: ${why}`,
    `Web fetch does not reach this machine or private networks. If the user wants this host ` +
      `reachable, they can add it in config.toml: allowed_hosts = ["${entry}"] under [web_fetch]`,
  );
}

async function resolve(host: string, url: URL, net: WebFetchNet): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await (net.lookup ?? systemLookup)(host);
  } catch (err) {
    throw new ToolError(
      `Cannot fetch "${url.href}": cannot resolve "${host}": ${(err as Error).message ?? err}`,
      "Check the host name",
    );
  }
  if (addresses.length === 0) {
    throw new ToolError(
      `Cannot fetch "${url.href}": "${host}" has no address`,
      "Check the host name",
    );
  }
  return addresses;
}

/** A host name's addresses from the system resolver, as the connection would look them up. */
async function systemLookup(host: string): Promise<string[]> {
  // node:dns brings much of the Node layer: loaded with the first web fetch, not at start-up.
  const { lookup } = await import("node:dns/promises");
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((entry) => entry.address);
}

/**
 * True when `url`'s host is listed in `allowed` (exact host, or `host:port` for that port only).
 * Entries are read as URL hosts, so `2130706433` lists 127.0.0.1 and `[::1]` or `::1` lists ::1.
 */
export function isAllowedHost(url: URL, allowed: readonly string[]): boolean {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const host = url.hostname.replace(/\.$/, "");
  return allowed.some((text) => {
    const entry = parseHostEntry(text);
    return entry !== undefined && entry.hostname === host && (!entry.port || entry.port === port);
  });
}

/** An `allowed_hosts` entry as a URL host name and an optional port; undefined when malformed. */
export function parseHostEntry(text: string): { hostname: string; port?: string } | undefined {
  const bareIpv6 = !text.startsWith("[") && (text.match(/:/g) ?? []).length > 1;
  const host = bareIpv6 ? `[${text}]` : text;
  const port = /^(?:\[[^\]]*\]|[^:]*):(\d{1,5})$/.exec(host)?.[1];
  let url: URL;
  try {
    url = new URL(`http://${host}/`);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.pathname !== "/" || url.search || url.hash) {
    return undefined;
  }
  return { hostname: url.hostname.replace(/\.$/, ""), port: port && String(Number(port)) };
}

function redirectTarget(from: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new ToolError(`Cannot fetch "${from.href}": it redirects to "${location}", not a URL`);
  }
  if (next.protocol !== "http:" && next.protocol !== "https:") {
    throw new ToolError(
      `Cannot fetch "${from.href}": it redirects to "${next.href}", not an http or https URL`,
    );
  }
  return next;
}

/**
 * Sends one request. Plain http connects to a checked address itself (the URL's name still goes
 * in the Host header), so the name cannot resolve to another address between the check and the
 * connection (DNS rebinding). The runtime's fetch cannot pin the address of an https connection (its
 * `tcp` transport speaks plain HTTP only), so https connects by name; there, a rebound name would
 * reach a server that cannot show a certificate for that name, and TLS verification fails before
 * any request is sent.
 */
async function send(
  url: URL,
  route: Route,
  init: RequestInit,
): Promise<Omit<GuardedResponse, "url">> {
  if (route.anywhere || url.protocol === "https:") {
    return { response: await fetch(url, init), close() {} };
  }
  let failure: unknown;
  for (const address of ipv4First(route.addresses)) {
    try {
      return await fetchAt(url, address, init);
    } catch (err) {
      if (init.signal?.aborted) throw err;
      failure = err;
    }
  }
  throw failure;
}

/** Requests plain-http `url` from IP `address`, whatever its host name resolves to now. */
export async function fetchAt(
  url: URL,
  address: string,
  init: RequestInit,
): Promise<Omit<GuardedResponse, "url">> {
  const hostname = parseIpv4(address) ? address : `[${unbracketed(address)}]`;
  const port = Number(url.port || 80);
  const client = Deno.createHttpClient({ proxy: { transport: "tcp", hostname, port } });
  try {
    return { response: await fetch(url, { ...init, client }), close: () => client.close() };
  } catch (err) {
    client.close();
    throw err;
  }
}

function ipv4First(addresses: string[]): string[] {
  const v4 = addresses.filter((a) => parseIpv4(a));
  return [...new Set([...v4, ...addresses])];
}
