/**
 * What the e2e tests of other agents' setups (issue 33) share: a temp git repository holding a
 * copy of `tests/fixtures/setups/repo` (dot folders included), and the REPL run with its input
 * piped in.
 */
import { join } from "node:path";
import { LAUNCHER, REPO, run } from "./_harness_env.ts";

/** A temp git repository with one commit of the shared fixture repository; the caller removes it. */
export async function setupsRepo(): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi-setups-" }));
  // join() would drop a trailing "/.", and cp would copy the folder itself.
  await run("cp", ["-R", `${join(REPO, "tests/fixtures/setups/repo")}/.`, dir], dir);
  await run("git", ["init", "-q"], dir);
  await run("git", ["add", "."], dir);
  const who = ["-c", "user.email=t@example.com", "-c", "user.name=t"];
  await run("git", [...who, "commit", "-qm", "Fixture commit"], dir);
  return dir;
}

/** The config.toml lines that trust the project at `repo`. */
export function trustedProject(repo: string): string {
  return `[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n`;
}

/** `interpreter ARGS` with `stdin` piped in (the REPL reading lines), to its end. */
export async function pipedRepl(
  args: string[],
  opts: { cwd: string; home: string; stdin: string; env?: Record<string, string> },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(LAUNCHER, {
    args,
    cwd: opts.cwd,
    env: { OPENINTERPRETER_HOME: opts.home, FAKE_API_KEY: "k", ...opts.env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(opts.stdin));
  await writer.close();
  const out = await child.output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}
