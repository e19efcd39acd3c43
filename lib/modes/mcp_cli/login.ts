// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
/**
 * `interpreter mcp login NAME` and `interpreter mcp logout NAME`: the OAuth sign-in of a
 * streamable-HTTP MCP server, its tokens kept in `auth.json`.
 */
import { authFile } from "../../config/auth.ts";
import type { EffectiveConfig } from "../../config/effective.ts";
import { configHome, loadConfig } from "../../config/load.ts";
import type { McpServerEntry } from "../../config/schema.ts";
import { UsageError } from "../../errors.ts";
import { openInBrowser } from "../../mcp/oauth_browser.ts";
import { signIn } from "../../mcp/oauth_login.ts";
import { removeMcpLogin } from "../../mcp/oauth_store.ts";

/** Seams of `runMcpLogin` / `runMcpLogout`; each defaults to the process's own. */
export interface McpLoginOptions {
  /** The config home (`auth.json`, `config.toml`); from `env` when absent. */
  home?: string;
  /** The environment (config home, `env_http_headers`, `BROWSER`). */
  env?: Record<string, string | undefined>;
  /** The working directory the project config is found from. */
  cwd?: string;
  /** The effective config, when the caller has loaded it (with `-c` overrides, a profile). */
  config?: EffectiveConfig;
  /** Opens the authorization URL; false when no browser was started. Default: `openInBrowser`. */
  openUrl?: (url: string) => boolean | Promise<boolean>;
  /** How long to wait for the browser to come back (default five minutes). */
  timeoutMs?: number;
}

/** Signs in to server `name`; the exit code. */
export async function runMcpLogin(name: string, opts: McpLoginOptions = {}): Promise<number> {
  const env = opts.env ?? Deno.env.toObject();
  const { home, url, server } = await remoteServer(name, env, opts);
  const openUrl = opts.openUrl ?? ((url: string) => openInBrowser(url, env));
  const result = await signIn(home, name, url, {
    headers: httpHeaders(server, env),
    timeoutMs: opts.timeoutMs,
    showUrl: async (authorizationUrl) => {
      console.log(`To sign in to MCP server "${name}", open this URL in your browser:\n`);
      console.log(`  ${authorizationUrl}\n`);
      const opened = await Promise.resolve(openUrl(authorizationUrl)).catch(() => false);
      console.log(
        opened ? "Opened your browser; waiting for the sign-in…" : "Waiting for the sign-in…",
      );
    },
  });
  if (!result.signedIn) {
    console.log(
      `MCP server "${name}" answered without a sign-in (${
        tools(result.tools)
      }); nothing was stored`,
    );
    return 0;
  }
  console.log(`Signed in to MCP server "${name}" (${tools(result.tools)})`);
  console.log(`Tokens stored in ${authFile(home)}; sessions refresh them when they expire`);
  return 0;
}

/** Removes the stored sign-in of server `name`; the exit code. */
export async function runMcpLogout(name: string, opts: McpLoginOptions = {}): Promise<number> {
  const env = opts.env ?? Deno.env.toObject();
  const home = opts.home ?? opts.config?.home ?? configHome(env, opts.cwd ?? Deno.cwd());
  const file = authFile(home);
  if (await removeMcpLogin(home, name)) {
    console.log(`Removed the sign-in of MCP server "${name}" from ${file}`);
  } else {
    console.log(`No sign-in is stored for MCP server "${name}" in ${file}`);
  }
  return 0;
}

async function remoteServer(
  name: string,
  env: Record<string, string | undefined>,
  opts: McpLoginOptions,
): Promise<{ home: string; url: string; server: McpServerEntry }> {
  const config = opts.config ?? await loadConfig({
    cwd: opts.cwd ?? Deno.cwd(),
    env: opts.home ? { ...env, OPENINTERPRETER_HOME: opts.home } : env,
    flags: {},
    overrides: [],
  });
  const home = opts.home ?? config.home;
  const servers = config.values.mcp_servers;
  const server = Object.hasOwn(servers, name) ? servers[name] : undefined;
  if (!server) {
    const names = Object.keys(servers);
    throw new UsageError(`No MCP server "${name}" is configured`, {
      hint: names.length
        ? `Configured servers: ${names.join(", ")}; add another with ` +
          `"interpreter mcp add ${name} --url URL"`
        : `Add it with "interpreter mcp add ${name} --url URL", then sign in`,
    });
  }
  if (!server.url) {
    throw new UsageError(`MCP server "${name}" runs a command over stdio and has no sign-in`, {
      hint: "Only servers with a url sign in; a stdio server takes its credentials from " +
        `the env of [mcp_servers.${name}]`,
    });
  }
  return { home, url: server.url, server };
}

function httpHeaders(
  server: McpServerEntry,
  env: Record<string, string | undefined>,
): Record<string, string> {
  const headers = { ...server.http_headers };
  for (const [header, variable] of Object.entries(server.env_http_headers ?? {})) {
    const value = env[variable];
    if (value) headers[header] = value;
  }
  return headers;
}

function tools(count: number): string {
  return count === 1 ? "1 tool" : `${count} tools`;
}
