import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO = fileURLToPath(new URL("../..", import.meta.url));
/** The launcher a user runs from a checkout. */
export const LAUNCHER = join(REPO, "scripts", "interpreter");

/** Folders that a test made, removed when it ends. */
export interface TempDirs extends AsyncDisposable {
  /** Remembers the folder (or the folder a promise gives) for removal and returns its path. */
  add(dir: string | Promise<string>): Promise<string>;
}

/** `await using dirs = tempDirs()`, then `dirs.add(fixtureRepo(...))`. Test helper. */
export function tempDirs(): TempDirs {
  const dirs: string[] = [];
  return {
    async add(dir) {
      const path = await dir;
      dirs.push(path);
      return path;
    },
    async [Symbol.asyncDispose]() {
      for (const dir of dirs) {
        await Deno.remove(dir, { recursive: true }).catch((error) => {
          if (!(error instanceof Deno.errors.NotFound)) throw error;
        });
      }
    },
  };
}

/** Copies a fixture folder into a fresh temp git repository and returns its path. */
export async function fixtureRepo(fixture: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "oi-e2e-" });
  const source = join(REPO, "tests", "fixtures", fixture);
  for await (const entry of Deno.readDir(source)) {
    if (entry.isFile) await Deno.copyFile(join(source, entry.name), join(dir, entry.name));
  }
  await run("git", ["init", "-q"], dir);
  await run("git", ["add", "."], dir);
  await run(
    "git",
    ["-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "init"],
    dir,
  );
  return dir;
}

/** Writes a config home whose only provider is the fake server on `baseUrl`. */
export async function fakeHome(baseUrl: string, wire: string, extra = ""): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "oi-home-" });
  await Deno.writeTextFile(
    join(home, "config.toml"),
    `model = "fake-model"\nmodel_provider = "fake"\n${extra}\n` +
      `[model_providers.fake]\nname = "Fake"\nbase_url = "${baseUrl}"\n` +
      `wire_api = "${wire}"\nenv_key = "FAKE_API_KEY"\nrequest_max_retries = 2\n`,
  );
  return home;
}

/** Result of a finished process. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion and returns its exit code and text output. */
export async function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<RunResult> {
  const out = await new Deno.Command(cmd, {
    args,
    cwd,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

/** Runs `scripts/interpreter` with a clean, test-owned config home. */
export function interpreter(
  args: string[],
  opts: { cwd: string; home: string; env?: Record<string, string> },
): Promise<RunResult> {
  return run(LAUNCHER, args, opts.cwd, {
    OPENINTERPRETER_HOME: opts.home,
    FAKE_API_KEY: "test-key",
    NO_COLOR: "1",
    // pytest loads every installed plugin by default: over a second per run on these machines.
    PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1",
    ...opts.env,
  });
}
