/**
 * Test helper: a recording proxy on 127.0.0.1 in front of a fake server, so a provider can keep
 * the path of its built-in base URL (`/api/paas/v4`, `/compatible-mode/v1`) while the fake, which
 * serves `/v1/...`, answers. Every request is recorded as it arrived; a path ending in a wire's
 * endpoint is passed on as that endpoint under `/v1`, any other path (`/api/chat`) unchanged.
 *
 * Local servers take Messages requests without a key, which the fake provider (modelled on
 * Anthropic's API) refuses; for those the proxy adds a placeholder `x-api-key` to what it passes
 * on, after recording the request as it came, so the test still sees that no key was sent.
 */
import { forward } from "./fake_ollama/server.ts";

/** A request as the proxy received it. */
export interface ProxiedRequest {
  method: string;
  path: string;
  /** Header names are lower case. */
  headers: Record<string, string>;
  body: unknown;
}

/** A running proxy. */
export interface RoutingProxy extends AsyncDisposable {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  readonly requests: ProxiedRequest[];
}

const ENDPOINTS = ["/chat/completions", "/responses", "/messages"];

/** Starts a proxy in front of the server at `target` (an origin). */
export function startRoutingProxy(target: string): RoutingProxy {
  const requests: ProxiedRequest[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const text = req.method === "GET" ? "" : await req.text();
    requests.push({
      method: req.method,
      path,
      headers: Object.fromEntries(req.headers),
      body: text ? JSON.parse(text) : null,
    });
    const endpoint = ENDPOINTS.find((e) => path.endsWith(e));
    const to = endpoint ? `/v1${endpoint}` : path;
    const headers = new Headers(req.headers);
    if (endpoint === "/messages" && !headers.has("x-api-key") && !headers.has("authorization")) {
      headers.set("x-api-key", "placeholder-for-a-keyless-local-server");
    }
    return await forward(
      new Request(`${target}${to}`, { method: req.method, headers, body: text || null }),
      `${target}${to}`,
    );
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    requests,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}
