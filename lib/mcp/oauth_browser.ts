/**
 * Opening the sign-in page in the user's browser: `$BROWSER` when set (`BROWSER=none` opens
 * nothing, as with create-react-app), else the platform's opener: `xdg-open` (Linux and other
 * Unix), `open` (macOS), `rundll32 url.dll,FileProtocolHandler` (Windows: unlike `cmd /c start`
 * it takes the URL as one argument, so `&` in the query needs no escaping). The URL is printed
 * as well, so a machine without a browser (SSH, a container) still signs in.
 *
 * The URL comes from the server's metadata, so it is hostile input: only a web page is opened
 * (`https:`, or `http:` to this machine). The openers hand anything else to whatever program the
 * system registered for it (`file:` and UNC paths start programs on Windows, `smb:` mounts shares,
 * a custom scheme runs its app).
 */

/** Why `url` is no web page to send the browser to, or undefined when it is one. */
export function signInUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "it is not a URL";
  }
  if (parsed.protocol === "https:") return undefined;
  if (parsed.protocol === "http:") {
    return isLoopback(parsed.hostname)
      ? undefined
      : "it uses http: to another machine (only https: is opened, or http: to this machine)";
  }
  return `its scheme is ${parsed.protocol} (only https: is opened, or http: to this machine)`;
}

function isLoopback(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name === "[::1]") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/**
 * The command line that opens `url`, or undefined when nothing should be opened (`BROWSER=none`,
 * or a URL that is no web page: see `signInUrlProblem`).
 */
export function browserCommand(
  url: string,
  env: Record<string, string | undefined>,
  os: typeof Deno.build.os = Deno.build.os,
): string[] | undefined {
  if (signInUrlProblem(url) !== undefined) return undefined;
  const browser = env.BROWSER?.trim();
  if (browser !== undefined && browser !== "") {
    return browser.toLowerCase() === "none" ? undefined : [browser, url];
  }
  if (os === "darwin") return ["open", url];
  if (os === "windows") return ["rundll32", "url.dll,FileProtocolHandler", url];
  return ["xdg-open", url];
}

/**
 * Starts the browser on `url` without waiting for it; false when there is none to start (the
 * opener is not installed, `BROWSER=none`, or `url` is no web page).
 */
export function openInBrowser(url: string, env: Record<string, string | undefined>): boolean {
  const command = browserCommand(url, env);
  if (!command) return false;
  try {
    const child = new Deno.Command(command[0], {
      args: command.slice(1),
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.status.catch(() => {});
    child.unref(); // the opener may outlive the sign-in (xdg-open can wait for the browser)
    return true;
  } catch {
    return false;
  }
}
