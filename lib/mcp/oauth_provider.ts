/**
 * The OAuth sign-in of streamable-HTTP MCP servers (`interpreter mcp login NAME`): the SDK's
 * client auth provider for a server, backed by the tokens stored in `auth.json`.
 *
 * In a session the provider only hands out the stored tokens: the SDK's transport sends the
 * access token, and when the server answers 401 (an expired token) its `auth()` refreshes it with
 * the refresh token and calls `saveTokens`, which stores the new ones. When no refresh is
 * possible, `auth()` would start a new authorization; the provider refuses with an
 * `UnauthorizedError` that names `interpreter mcp login NAME` instead of opening a browser.
 * The stored sign-in is read on every request, so sessions running side by side see each other's
 * refreshed tokens.
 */
// @ts-types="@modelcontextprotocol/sdk/client/auth"
import {
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  UnauthorizedError,
} from "@modelcontextprotocol/sdk/client/auth.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/shared/auth"
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpServerEntry } from "../config/schema.ts";
import {
  expiryOf,
  type McpLogin,
  readMcpLogin,
  removeMcpLogin,
  saveMcpLogin,
} from "./oauth_store.ts";

/** How `interpreter mcp login` drives the provider through an authorization. */
export interface LoginFlow {
  /** The local callback the authorization server redirects to. */
  redirectUrl: string;
  /** The `state` sent along and checked on the callback. */
  state: string;
  /** Shows the user the authorization URL (opens the browser, prints it). */
  onAuthorizationUrl(url: URL): void | Promise<void>;
}

/** Redirect URI of a session's provider whose stored client lists none (never visited). */
const NO_CALLBACK = "http://127.0.0.1/callback";

/** The auth provider for server `id` at `url`; undefined while no login is stored for it. */
export function mcpAuthProvider(
  home: string,
  id: string,
  url: string,
): OAuthClientProvider | undefined {
  const login = readMcpLogin(home, id);
  if (!login || !sameUrl(login.url, url)) return undefined;
  return new McpOAuthProvider(home, id, url);
}

/**
 * True when `error` (or its cause) says the server wants an OAuth sign-in: the SDK's
 * `UnauthorizedError`, or a 401 from a server without stored tokens. A server given a fixed
 * token (`bearer_token_env_var`, an Authorization header) has a wrong token instead: false.
 */
export function needsLogin(error: unknown, server?: McpServerEntry): boolean {
  if (server && hasFixedToken(server)) return false;
  const chain: unknown[] = [error];
  while (chain.length < 8 && chain.at(-1) instanceof Error) {
    chain.push((chain.at(-1) as Error).cause);
  }
  return chain.some((e) =>
    e instanceof UnauthorizedError ||
    (e instanceof StreamableHTTPError && e.code === 401)
  );
}

/** The reason `/mcp` shows for a server that needs a sign-in; it names the command. */
export function loginReason(id: string): string {
  return `needs login: run "interpreter mcp login ${id}" to sign in`;
}

/** The SDK's `OAuthClientProvider` for one server, with its tokens in `auth.json`. */
export class McpOAuthProvider implements OAuthClientProvider {
  readonly #home: string;
  readonly #id: string;
  readonly #url: string;
  readonly #login?: LoginFlow;
  #client?: OAuthClientInformationMixed;
  #tokens?: OAuthTokens;
  /** The tokens a session's provider last handed out. */
  #handedOut?: OAuthTokens;
  #verifier?: string;
  #discovery?: OAuthDiscoveryState;

  /** A session's provider, or with `login` the one `interpreter mcp login` signs in with. */
  constructor(home: string, id: string, url: string, login?: LoginFlow) {
    this.#home = home;
    this.#id = id;
    this.#url = url;
    this.#login = login;
  }

  /** The callback of the sign-in (a session never redirects, but the SDK needs one). */
  get redirectUrl(): string {
    if (this.#login) return this.#login.redirectUrl;
    const client = this.clientInformation();
    const uris = client && "redirect_uris" in client ? client.redirect_uris : [];
    return uris[0] ?? NO_CALLBACK;
  }

  /**
   * What dynamic client registration sends: a public client with PKCE and refresh tokens. A
   * session registers no client (that is the sign-in's work): without one it refuses.
   */
  get clientMetadata(): OAuthClientMetadata {
    if (!this.#login && !this.clientInformation()) {
      throw loginRequired(this.#id);
    }
    return {
      client_name: "interpreter",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  /** The `state` of the authorization request. */
  state(): string {
    return this.#login?.state ?? crypto.randomUUID();
  }

  /** The registered client: this sign-in's, else the stored one. */
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.#client ?? (this.#login ? undefined : this.#stored()?.client_information);
  }

  /** Keeps the registered client; a session's stored sign-in takes it along. */
  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    this.#client = client;
    const stored = this.#login ? undefined : this.#stored();
    if (stored) await saveMcpLogin(this.#home, this.#id, { ...stored, client_information: client });
  }

  /** The tokens: this sign-in's, else the stored ones, read afresh on every call. */
  tokens(): OAuthTokens | undefined {
    if (this.#login) return this.#tokens;
    this.#handedOut = this.#stored()?.tokens;
    return this.#handedOut;
  }

  /** Stores new tokens (a sign-in's first, or refreshed ones) in `auth.json`. */
  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.#tokens = tokens;
    const client = this.clientInformation();
    if (!client) throw new Error("Cannot store OAuth tokens without the client they belong to");
    const login: McpLogin = { url: this.#url, client_information: client, tokens };
    const expires = expiryOf(tokens);
    await saveMcpLogin(this.#home, this.#id, expires ? { ...login, expires_at: expires } : login);
  }

  /** Sends the user to the authorization URL while signing in; a session refuses instead. */
  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.#login) return await this.#login.onAuthorizationUrl(url);
    throw loginRequired(this.#id, " again");
  }

  /** Keeps the PKCE verifier of this authorization. */
  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  /** The PKCE verifier saved for this authorization. */
  codeVerifier(): string {
    if (this.#verifier === undefined) throw new Error("No PKCE code verifier was saved");
    return this.#verifier;
  }

  /** Keeps discovery results for the provider's lifetime (refreshes skip rediscovery). */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  /** The discovery results kept so far. */
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  /**
   * Forgets what the authorization server refused. A session's stored sign-in goes (a dead
   * refresh token or client cannot come back), unless another process replaced it meanwhile.
   */
  async invalidateCredentials(
    scope: "all" | "client" | "tokens" | "verifier" | "discovery",
  ): Promise<void> {
    if (scope === "verifier") this.#verifier = undefined;
    if (scope === "discovery" || scope === "all") this.#discovery = undefined;
    if (scope === "verifier" || scope === "discovery") return;
    if (scope !== "tokens") this.#client = undefined;
    this.#tokens = undefined;
    if (this.#login) return;
    const stored = this.#stored();
    if (stored && stored.tokens.access_token === this.#handedOut?.access_token) {
      await removeMcpLogin(this.#home, this.#id);
    }
  }

  #stored(): McpLogin | undefined {
    const login = readMcpLogin(this.#home, this.#id);
    return login && sameUrl(login.url, this.#url) ? login : undefined;
  }
}

/** The SDK's `UnauthorizedError`, named so (its class leaves "Error") and naming the command. */
function loginRequired(id: string, again = ""): Error {
  const error = new UnauthorizedError(`MCP server "${id}" ${loginReason(id)}${again}`);
  error.name = "UnauthorizedError";
  return error;
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

function hasFixedToken(server: McpServerEntry): boolean {
  if (server.bearer_token_env_var) return true;
  const names = [
    ...Object.keys(server.http_headers ?? {}),
    ...Object.keys(server.env_http_headers ?? {}),
  ];
  return names.some((name) => name.toLowerCase() === "authorization");
}
