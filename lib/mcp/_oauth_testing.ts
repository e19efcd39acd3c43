/**
 * For tests: an MCP server that needs an OAuth sign-in, built with the SDK's server side on
 * 127.0.0.1 in the test's own process. One express app is both the authorization server
 * (`mcpAuthRouter`: metadata, dynamic client registration, /authorize with PKCE, /token) and
 * the resource server: `POST /mcp` behind `requireBearerAuth`, a stateless streamable-HTTP MCP
 * server with one tool, `whoami`, that answers with the access token it was called with.
 * `POST /open` is the same MCP server without the sign-in. `/authorize` approves at once and redirects to the client's callback, as a browser would
 * after the user said yes. With `authorizationEndpoint` its metadata names that URL instead (a
 * hostile server sending the browser elsewhere).
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/server/express"
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
// @ts-types="@modelcontextprotocol/sdk/server/auth/router"
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from "@modelcontextprotocol/sdk/server/auth/router.js";
// @ts-types="@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth"
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
// @ts-types="@modelcontextprotocol/sdk/server/auth/errors"
import {
  InvalidGrantError,
  InvalidTokenError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
// @ts-types="@modelcontextprotocol/sdk/server/auth/provider"
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from "@modelcontextprotocol/sdk/server/auth/provider.js";
// @ts-types="@modelcontextprotocol/sdk/shared/auth"
import type {
  OAuthClientInformationFull,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";

/** A running sign-in server; disposing of it closes it. */
export interface OAuthTestServer extends AsyncDisposable {
  /** The MCP endpoint, `http://127.0.0.1:PORT/mcp`. */
  url: string;
  /** The same MCP server without a sign-in, `http://127.0.0.1:PORT/open`. */
  openUrl: string;
  /** How many clients registered. */
  clientCount(): number;
  /** The grants the token endpoint served, in order ("authorization_code", "refresh_token"). */
  grants: string[];
  /** Makes every access token issued so far expired. */
  expireAccessTokens(): void;
  /** Forgets every refresh token (as after a revocation): refreshing fails with invalid_grant. */
  revokeRefreshTokens(): void;
}

/** Options of `startOAuthTestServer`. */
export interface OAuthTestOptions {
  /** The lifetime of its access tokens (default an hour). */
  accessSeconds?: number;
  /** The authorization endpoint its metadata names; its own `/authorize` when absent. */
  authorizationEndpoint?: string;
}

/** Starts the server. */
export async function startOAuthTestServer(opts: OAuthTestOptions = {}): Promise<OAuthTestServer> {
  const auth = new InMemoryAuth(opts.accessSeconds ?? 3600);
  const app = createMcpExpressApp();
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mcpUrl = new URL("/mcp", base);
  const noLimit = { rateLimit: false as const };
  const endpoint = opts.authorizationEndpoint;
  if (endpoint !== undefined) {
    const metadata = createOAuthMetadata({ provider: auth, issuerUrl: new URL(base) });
    app.get("/.well-known/oauth-authorization-server", (_req: unknown, res: JsonResponse) => {
      res.json({ ...metadata, authorization_endpoint: endpoint });
    });
  }
  app.use(mcpAuthRouter({
    provider: auth,
    issuerUrl: new URL(base),
    resourceServerUrl: mcpUrl,
    scopesSupported: ["mcp"],
    authorizationOptions: noLimit,
    tokenOptions: noLimit,
    clientRegistrationOptions: noLimit,
  }));
  const bearer = requireBearerAuth({
    verifier: auth,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
  });
  app.post("/mcp", bearer, serveMcp);
  app.post("/open", serveMcp);
  app.get(["/mcp", "/open"], (_req: unknown, res: { status(n: number): { end(): void } }) => {
    res.status(405).end();
  });
  return {
    url: mcpUrl.href,
    openUrl: new URL("/open", base).href,
    clientCount: () => auth.clients.size,
    grants: auth.grants,
    expireAccessTokens: () => auth.expireAll(),
    revokeRefreshTokens: () => auth.refresh.clear(),
    [Symbol.asyncDispose]: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

interface JsonResponse {
  json(body: unknown): void;
}

// deno-lint-ignore no-explicit-any -- express's request and response (untyped here)
async function serveMcp(req: any, res: any): Promise<void> {
  const mcp = new McpServer({ name: "oauth-test", version: "1.0.0" });
  mcp.registerTool(
    "whoami",
    { description: "The access token of this call" },
    (extra) => ({
      content: [{ type: "text", text: extra.authInfo?.token ?? "" }],
    }),
  );
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on("close", () => {
    transport.close();
    mcp.close();
  });
  await mcp.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

/** The authorization server's state: clients, codes and tokens, all in memory. */
class InMemoryAuth implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly codes = new Map<string, { clientId: string; challenge: string }>();
  readonly access = new Map<string, { clientId: string; expiresAt: number }>();
  readonly refresh = new Map<string, string>();
  readonly grants: string[] = [];
  readonly #accessSeconds: number;

  constructor(accessSeconds: number) {
    this.#accessSeconds = accessSeconds;
  }

  get clientsStore() {
    return {
      getClient: (id: string) => this.clients.get(id),
      registerClient: (client: OAuthClientInformationFull) => {
        this.clients.set(client.client_id, client);
        return client;
      },
    };
  }

  authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    // deno-lint-ignore no-explicit-any -- express's response (untyped here)
    res: any,
  ): Promise<void> {
    const code = crypto.randomUUID();
    this.codes.set(code, { clientId: client.client_id, challenge: params.codeChallenge });
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    res.redirect(target.href);
    return Promise.resolve();
  }

  challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string) {
    const entry = this.codes.get(code);
    if (!entry) return Promise.reject(new InvalidGrantError("Unknown authorization code"));
    return Promise.resolve(entry.challenge);
  }

  exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string) {
    const entry = this.codes.get(code);
    if (entry?.clientId !== client.client_id) {
      return Promise.reject(new InvalidGrantError("Unknown authorization code"));
    }
    this.codes.delete(code);
    this.grants.push("authorization_code");
    return Promise.resolve(this.#issue(client.client_id));
  }

  exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string) {
    if (this.refresh.get(refreshToken) !== client.client_id) {
      return Promise.reject(new InvalidGrantError("Unknown refresh token"));
    }
    this.refresh.delete(refreshToken);
    this.grants.push("refresh_token");
    return Promise.resolve(this.#issue(client.client_id));
  }

  verifyAccessToken(token: string) {
    const entry = this.access.get(token);
    if (!entry) return Promise.reject(new InvalidTokenError("Unknown access token"));
    return Promise.resolve({
      token,
      clientId: entry.clientId,
      scopes: [],
      expiresAt: entry.expiresAt,
    });
  }

  expireAll(): void {
    for (const entry of this.access.values()) entry.expiresAt = Math.floor(Date.now() / 1000) - 1;
  }

  #issue(clientId: string): OAuthTokens {
    const access = crypto.randomUUID();
    const refresh = crypto.randomUUID();
    const expiresAt = Math.floor(Date.now() / 1000) + this.#accessSeconds;
    this.access.set(access, { clientId, expiresAt });
    this.refresh.set(refresh, clientId);
    return {
      access_token: access,
      token_type: "bearer",
      expires_in: this.#accessSeconds,
      refresh_token: refresh,
    };
  }
}
