/**
 * The OAuth sign-ins of MCP servers, kept in the `mcp` section of `auth.json` (mode 0600, beside
 * the provider keys, which stay as they are):
 *
 * ```json
 * { "mcp": { "docs": { "url": "https://…/mcp", "client_information": {…}, "tokens": {…},
 *                     "expires_at": "2025-01-01T12:00:00.000Z" } } }
 * ```
 *
 * `client_information` and `tokens` are what the SDK's `auth()` handed to the provider, kept
 * unchanged (the SDK stamps them with the authorization server they belong to).
 */
// @ts-types="@modelcontextprotocol/sdk/shared/auth"
import {
  OAuthClientInformationFullSchema,
  type OAuthClientInformationMixed,
  OAuthClientInformationSchema,
  type OAuthTokens,
  OAuthTokensSchema,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { authFile, readAuthSections, writeAuthSection } from "../config/auth.ts";
import { ConfigError } from "../errors.ts";

/** The `auth.json` section of MCP sign-ins. */
const SECTION = "mcp";

/** One server's stored sign-in. */
export interface McpLogin {
  /** The server's URL at sign-in; a login for another URL is not used. */
  url: string;
  client_information: OAuthClientInformationMixed;
  tokens: OAuthTokens;
  /** When the access token expires (ISO 8601), if the server said. */
  expires_at?: string;
}

/** The sign-in stored for server `id`, if any. */
export function readMcpLogin(home: string, id: string): McpLogin | undefined {
  const logins = readSection(home);
  if (!Object.hasOwn(logins, id)) return undefined;
  return parseLogin(home, id, logins[id]);
}

/** Stores the sign-in of server `id`, keeping the other servers' and the provider keys. */
export async function saveMcpLogin(home: string, id: string, login: McpLogin): Promise<void> {
  await writeAuthSection(home, SECTION, { ...readSection(home), [id]: login });
}

/** Removes the sign-in of server `id`; false when none was stored. */
export async function removeMcpLogin(home: string, id: string): Promise<boolean> {
  const logins = readSection(home);
  if (!Object.hasOwn(logins, id)) return false;
  delete logins[id];
  await writeAuthSection(home, SECTION, Object.keys(logins).length ? logins : undefined);
  return true;
}

/** `tokens` with the expiry time their `expires_in` (seconds from `now`) gives. */
export function expiryOf(tokens: OAuthTokens, now = Date.now()): string | undefined {
  const seconds = tokens.expires_in;
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return undefined;
  return new Date(now + seconds * 1000).toISOString();
}

function readSection(home: string): Record<string, unknown> {
  const section = readAuthSections(home)[SECTION] ?? {};
  if (typeof section === "object" && section !== null && !Array.isArray(section)) {
    return { ...section } as Record<string, unknown>;
  }
  throw malformed(home, `"${SECTION}" must be an object`);
}

function parseLogin(home: string, id: string, entry: unknown): McpLogin {
  const value = (entry ?? {}) as Record<string, unknown>;
  const where = `"${SECTION}.${id}"`;
  if (typeof value.url !== "string") throw malformed(home, `${where} has no "url"`);
  const full = OAuthClientInformationFullSchema.safeParse(value.client_information);
  const client = full.success
    ? full
    : OAuthClientInformationSchema.safeParse(value.client_information);
  if (!client.success) throw malformed(home, `${where} has no valid "client_information"`);
  const tokens = OAuthTokensSchema.safeParse(value.tokens);
  if (!tokens.success) throw malformed(home, `${where} has no valid "tokens"`);
  const expires = typeof value.expires_at === "string" ? value.expires_at : undefined;
  return {
    url: value.url,
    client_information: client.data,
    tokens: tokens.data,
    ...(expires ? { expires_at: expires } : {}),
  };
}

function malformed(home: string, what: string): ConfigError {
  const id = what.match(/^"mcp\.([^"]+)"/)?.[1];
  return new ConfigError(`Cannot read the MCP sign-ins in "${authFile(home)}": ${what}`, {
    hint: id
      ? `Sign in again with "interpreter mcp login ${id}" (or "interpreter mcp logout ${id}")`
      : `Remove the "${SECTION}" section and sign in again with "interpreter mcp login NAME"`,
  });
}
