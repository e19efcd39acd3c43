/**
 * The OAuth sign-in of a streamable-HTTP MCP server, through the SDK's client auth: the SDK
 * client connects without a token, the server answers 401, and the transport's `auth()`
 * discovers the protected-resource and authorization-server metadata, registers a client
 * (dynamic client registration, with the local callback as redirect URI) and builds the
 * authorization URL with PKCE and `state`. The user opens it; the browser comes back to the
 * callback with a code; `finishAuth` exchanges it for tokens, which the provider stores. A
 * second connection with the stored tokens proves that they work.
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/auth"
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AuthError, UserError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { signInUrlProblem } from "./oauth_browser.ts";
import { OAuthCallbackError, startOAuthCallback } from "./oauth_callback.ts";
import { loginReason, mcpAuthProvider, McpOAuthProvider } from "./oauth_provider.ts";
import { readMcpLogin } from "./oauth_store.ts";

/** How long the sign-in waits for the browser by default. */
const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** Inputs of `signIn`. */
export interface SignInOptions {
  /** Headers the server gets on every request (`http_headers`, `env_http_headers`). */
  headers?: Record<string, string>;
  /** Shows the user the authorization URL: prints it, opens the browser. */
  showUrl(url: string): unknown;
  /** How long to wait for the browser to come back; `SIGN_IN_TIMEOUT_MS` when absent. */
  timeoutMs?: number;
}

/** What a sign-in came to. */
export type SignInResult =
  /** The server answered without a sign-in; nothing was stored. */
  | { signedIn: false; tools: number }
  /** Tokens are stored; the server answered with them. */
  | { signedIn: true; tools: number; expiresAt?: string };

/**
 * Signs in to server `id` at `url` and stores the tokens in `<home>/auth.json`. Failures are
 * `UserError`s naming the server, what failed and what to do.
 */
export async function signIn(
  home: string,
  id: string,
  url: string,
  opts: SignInOptions,
): Promise<SignInResult> {
  const state = crypto.randomUUID();
  await using callback = await startOAuthCallback(state);
  let shown = false;
  const provider = new McpOAuthProvider(home, id, url, {
    redirectUrl: callback.redirectUrl,
    state,
    onAuthorizationUrl: async (authorizationUrl) => {
      refuseNonWebUrl(id, authorizationUrl.href);
      shown = true;
      await opts.showUrl(authorizationUrl.href);
    },
  });
  const transport = newTransport(url, provider, opts.headers);
  try {
    return { signedIn: false, tools: await countTools(transport) };
  } catch (error) {
    if (!(error instanceof UnauthorizedError && shown)) throw failure(id, url, error);
  }
  const timeoutMs = opts.timeoutMs ?? SIGN_IN_TIMEOUT_MS;
  try {
    await transport.finishAuth(await callback.waitForCode(timeoutMs));
  } catch (error) {
    throw failure(id, url, error);
  }
  const stored = mcpAuthProvider(home, id, url);
  if (!stored) throw failure(id, url, new Error("the tokens were not stored"));
  try {
    const tools = await countTools(newTransport(url, stored, opts.headers));
    return { signedIn: true, tools, expiresAt: readMcpLogin(home, id)?.expires_at };
  } catch (error) {
    throw failure(id, url, error, "the server refused the new tokens");
  }
}

/**
 * The authorization URL comes from the server's metadata: anything but a web page is refused
 * before it is shown or opened (see `signInUrlProblem`).
 */
function refuseNonWebUrl(id: string, url: string): void {
  const problem = signInUrlProblem(url);
  if (problem === undefined) return;
  throw new AuthError(
    `Refused the sign-in URL of MCP server "${id}": ${problem}: ${JSON.stringify(url)}`,
    {
      hint: "Nothing was opened. A sign-in page must be an https: URL (or http: to this " +
        "machine); the server's authorization metadata names another kind, so do not open it " +
        `yourself, and tell the server's owner, or remove [mcp_servers.${id}]`,
    },
  );
}

function newTransport(
  url: string,
  authProvider: McpOAuthProvider | ReturnType<typeof mcpAuthProvider>,
  headers: Record<string, string> = {},
): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), {
    authProvider,
    requestInit: { headers },
  });
}

async function countTools(transport: StreamableHTTPClientTransport): Promise<number> {
  const client = new Client({ name: "interpreter", version: VERSION });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    return tools.length;
  } finally {
    await client.close().catch(() => {});
  }
}

function failure(id: string, url: string, error: unknown, what?: string): UserError {
  if (error instanceof UserError) return error;
  const retry = `run "interpreter mcp login ${id}" again`;
  const detail = what ? `${what} (${messageOf(error)})` : messageOf(error);
  if (error instanceof TypeError) {
    return new UserError(`Cannot reach MCP server "${id}" at ${url}: ${detail}`, {
      hint: `Check the url of [mcp_servers.${id}] and that the server is running, then ${retry}`,
      cause: error,
    });
  }
  if (error instanceof OAuthCallbackError) {
    return new AuthError(`Cannot sign in to MCP server "${id}": ${detail}`, {
      hint: `Finish the sign-in in the browser: ${retry}`,
      cause: error,
    });
  }
  const unauthorized = error instanceof UnauthorizedError;
  return new AuthError(`Cannot sign in to MCP server "${id}" at ${url}: ${detail}`, {
    hint: unauthorized
      ? `${loginReason(id)}; if it fails again, the server may not offer OAuth sign-in`
      : "The server must offer OAuth sign-in (protected-resource metadata and an " +
        "authorization server with client registration); a server that takes a fixed token " +
        `uses bearer_token_env_var instead. Then ${retry}`,
    cause: error,
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
