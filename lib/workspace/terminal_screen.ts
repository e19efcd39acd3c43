/**
 * The line a fresh `terminal.keys` terminal shows, worked out without starting one: Terminus 2's
 * first message shows the terminal's screen before any command has run. It follows `PS1` in
 * lib/tools/_terminal_prompt.ts.
 */

/** What a fresh terminal's screen reads: its first prompt, as bash expands `PS1` there. */
export function freshTerminalScreen(
  cwd: string,
  env: Record<string, string | undefined>,
): string {
  const home = env.HOME?.replace(/\/+$/, "");
  const dir = home && (cwd === home || cwd.startsWith(`${home}/`))
    ? `~${cwd.slice(home.length)}`
    : cwd;
  return `${userName(env)}@${hostName()}:${dir}#`;
}

/** The user name bash's `\u` shows: the account of this process's user id. */
function userName(env: Record<string, string | undefined>): string {
  const uid = Deno.build.os === "windows" ? null : Deno.uid();
  try {
    const passwd = Deno.readTextFileSync("/etc/passwd");
    const line = passwd.split("\n").find((l) => l.split(":")[2] === String(uid));
    if (uid !== null && line) return line.split(":")[0];
  } catch {
    // No passwd file to read: the environment's name is the best guess.
  }
  return env.USER ?? env.LOGNAME ?? "user";
}

/** The host name bash's `\h` shows: up to the first dot. */
function hostName(): string {
  try {
    return Deno.hostname().split(".")[0];
  } catch {
    return "localhost";
  }
}
