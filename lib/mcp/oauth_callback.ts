/**
 * The local end of an OAuth sign-in: an HTTP server on 127.0.0.1 (a free port) that the
 * authorization server redirects the browser to with `code` and `state`. The first redirect
 * settles the sign-in: a wrong `state` or an error answer fails it, and so does the deadline.
 */

/** The path of the redirect URI. */
const CALLBACK_PATH = "/callback";

/** The browser came back with an error, another `state`, no code, or not in time. */
export class OAuthCallbackError extends Error {
  override name = "OAuthCallbackError";
}

/** A running callback server; disposing of it stops the server. */
export interface OAuthCallback extends AsyncDisposable {
  /** `http://127.0.0.1:PORT/callback`, the redirect URI to register. */
  readonly redirectUrl: string;
  /**
   * The authorization code the browser brought back. Rejects with an `OAuthCallbackError` saying what went
   * wrong when the redirect carries an error or another `state`, or after `timeoutMs`.
   */
  waitForCode(timeoutMs: number): Promise<string>;
}

/** Starts the callback server for an authorization request sent with `state`. */
export function startOAuthCallback(state: string): Promise<OAuthCallback> {
  const result = Promise.withResolvers<string>();
  result.promise.catch(() => {}); // settled before anyone waits, it must not count as unhandled
  let settled = false;
  const settle = (params: URLSearchParams): Response => {
    if (settled) return page(200, "This sign-in is already finished. You can close this tab.");
    settled = true;
    const problem = callbackProblem(params, state);
    if (problem) {
      result.reject(new OAuthCallbackError(problem));
      return page(400, `Sign-in failed: ${problem}. Return to the terminal for what to do next.`);
    }
    result.resolve(params.get("code")!);
    return page(200, "Signed in. You can close this tab and return to the terminal.");
  };
  const listening = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: (addr) => listening.resolve(addr as Deno.NetAddr),
  }, (request) => {
    const url = new URL(request.url);
    if (url.pathname !== CALLBACK_PATH) return page(404, "Not found.");
    return settle(url.searchParams);
  });
  return listening.promise.then((addr) => ({
    redirectUrl: `http://127.0.0.1:${addr.port}${CALLBACK_PATH}`,
    waitForCode: (timeoutMs: number) => withDeadline(result.promise, timeoutMs),
    [Symbol.asyncDispose]: () => server.shutdown(),
  }));
}

function callbackProblem(params: URLSearchParams, state: string): string | undefined {
  const error = params.get("error");
  if (error) {
    const description = params.get("error_description");
    const detail = description ? `: ${clean(description)}` : "";
    return `the authorization server answered "${clean(error)}"${detail}`;
  }
  if (params.get("state") !== state) {
    return "the redirect carried another state than the one sent (a stale or forged redirect)";
  }
  if (!params.get("code")) return "the redirect carried no authorization code";
  return undefined;
}

async function withDeadline<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const seconds = Math.round(timeoutMs / 1000);
      reject(new OAuthCallbackError(`the browser did not come back within ${seconds} s`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Text from the redirect, safe to print: no control characters, at most 200 characters. */
function clean(text: string): string {
  // deno-lint-ignore no-control-regex -- removing them is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").slice(0, 200);
}

function page(status: number, text: string): Response {
  const html = `<!doctype html><meta charset="utf-8"><title>interpreter</title>` +
    `<p style="font-family: sans-serif">${escapeHtml(text)}</p>\n`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8" } });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
