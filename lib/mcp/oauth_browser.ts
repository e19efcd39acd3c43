/**
 * Opening the sign-in page in the user's browser: `$BROWSER` when set (`BROWSER=none` opens
 * nothing, as with create-react-app), else the platform's opener: `xdg-open` (Linux and other
 * Unix), `open` (macOS), `rundll32 url.dll,FileProtocolHandler` (Windows: unlike `cmd /c start`
 * it takes the URL as one argument, so `&` in the query needs no escaping). The URL is printed
 * as well, so a machine without a browser (SSH, a container) still signs in.
 */

/** The command line that opens `url`, or undefined when nothing should be opened. */
export function browserCommand(
  url: string,
  env: Record<string, string | undefined>,
  os: typeof Deno.build.os = Deno.build.os,
): string[] | undefined {
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
 * opener is not installed, or `BROWSER=none`).
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
