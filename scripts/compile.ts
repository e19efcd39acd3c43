// deno-lint-ignore-file no-console -- a command-line script; its output is the point
/**
 * Builds the release assets into `dist/`: one binary per target, install.sh, install.ps1 and
 * SHA256SUMS. Run `deno task compile`; add `--dry-run` to print the commands instead.
 *
 * Permission flags are baked into a compiled binary (reference/sandbox.md §1.6), so they come from
 * the same list `scripts/interpreter` uses, `sandbox/deno_flags.json`, `--no-prompt` included.
 * The commit is written to `lib/_build_info.json` for the build, then the file is restored.
 *
 * It compiles the sources, not `scripts/interpreter`'s bundle (scripts/bundle.ts): that bundle
 * pins each module's `import.meta.url` to its file in this checkout, a path a binary on another
 * machine does not have, while `deno compile` already stores every module transpiled in the
 * binary and keeps V8's code cache on (no `--no-code-cache`). Release-binary start-up figures are
 * measured on the release machine, where `deno compile` can fetch `denort`.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readGitCommit } from "../lib/version.ts";
import { ENTRY_MODULES } from "../lib/cli/entry_modules.ts";
import { DENO_PERMISSION_FLAGS } from "../sandbox/deno_flags.ts";

/** A release target: the Rust target triple `deno compile` takes and the asset it produces. */
export interface Target {
  triple: string;
  asset: string;
}

/** Every release asset; install.sh and install.ps1 download these names. */
export const TARGETS: readonly Target[] = [
  { triple: "x86_64-unknown-linux-gnu", asset: "interpreter-linux-x64" },
  { triple: "aarch64-unknown-linux-gnu", asset: "interpreter-linux-arm64" },
  { triple: "x86_64-apple-darwin", asset: "interpreter-darwin-x64" },
  { triple: "aarch64-apple-darwin", asset: "interpreter-darwin-arm64" },
  { triple: "x86_64-pc-windows-msvc", asset: "interpreter-windows-x64.exe" },
];

const DIST = "dist";
/** Uploaded with the binaries, so that `.../releases/latest/download/install.sh` works. */
const INSTALLERS = ["install.sh", "install.ps1"];
const BUILD_INFO = "lib/_build_info.json";
/**
 * Environment baked into each binary (`deno compile --env-file` embeds the file's variables):
 * `DENO_NO_UPDATE_CHECK=1`, so that nothing but the model's provider is ever contacted.
 */
export const RELEASE_ENV = "scripts/release.env";
/** The compile runs themselves make no update check either. */
const COMPILE_ENV = { DENO_NO_UPDATE_CHECK: "1" };
const REPO = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");

/** The `deno` arguments that build one target, relative to the repository root. */
export function compileArgs(target: Target): string[] {
  return [
    "compile",
    "--frozen",
    "--target",
    target.triple,
    "--output",
    `${DIST}/${target.asset}`,
    `--env-file=${RELEASE_ENV}`,
    ...Object.values(ENTRY_MODULES).flatMap((module) => ["--include", module]),
    "--include",
    "harnesses",
    ...DENO_PERMISSION_FLAGS,
    "--config",
    "deno.json",
    "main.ts",
  ];
}

/** One line of a `sha256sum`-format file: the hex digest, two spaces, the file name. */
export async function sha256sumLine(path: string, name: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex}  ${name}`;
}

/** Quotes an argument for a POSIX shell when it needs it, so dry-run output can be pasted. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_\/.,:=@%+-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

async function run(args: string[]): Promise<void> {
  const status = await new Deno.Command(Deno.execPath(), { args, cwd: REPO, env: COMPILE_ENV })
    .spawn().status;
  if (!status.success) {
    throw new Error(`Command failed with exit code ${status.code}: deno ${args.join(" ")}`);
  }
}

async function build(commit: string): Promise<void> {
  const buildInfoPath = join(REPO, BUILD_INFO);
  const placeholder = await Deno.readTextFile(buildInfoPath);
  await Deno.mkdir(join(REPO, DIST), { recursive: true });
  await Deno.remove(join(REPO, DIST, "SHA256SUMS")).catch(() => {});
  await Deno.writeTextFile(buildInfoPath, JSON.stringify({ commit }) + "\n");
  try {
    for (const target of TARGETS) await run(compileArgs(target));
  } finally {
    await Deno.writeTextFile(buildInfoPath, placeholder);
  }
  for (const file of INSTALLERS) await Deno.copyFile(join(REPO, file), join(REPO, DIST, file));
  const lines = [];
  for (const name of [...TARGETS.map((t) => t.asset), ...INSTALLERS]) {
    lines.push(await sha256sumLine(join(REPO, DIST, name), name));
  }
  await Deno.writeTextFile(join(REPO, DIST, "SHA256SUMS"), lines.join("\n") + "\n");
  console.log(`Wrote ${TARGETS.length} binaries, the installers and ${DIST}/SHA256SUMS`);
  console.log(`Commit: ${commit || "unknown"}`);
}

async function main(args: string[]): Promise<number> {
  const unknown = args.filter((arg) => arg !== "--dry-run");
  if (unknown.length > 0) {
    console.error(`error: Unknown argument "${unknown[0]}"`);
    console.error("hint: the only option is --dry-run");
    return 2;
  }
  const commit = await readGitCommit(REPO) ?? "";
  if (!commit) {
    console.error(`warning: No git commit found; "interpreter --version" shows "unknown"`);
  }
  if (!args.includes("--dry-run")) {
    try {
      await build(commit);
      return 0;
    } catch (error) {
      console.error(`error: ${error instanceof Error ? error.message : error}`);
      console.error('hint: fix the problem reported above, then run "deno task compile" again');
      return 1;
    }
  }
  console.log(`# cd ${shellQuote(REPO)}`);
  console.log(`# write ${BUILD_INFO}: ${JSON.stringify({ commit })}`);
  console.log(`# with ${Object.entries(COMPILE_ENV).map(([k, v]) => `${k}=${v}`).join(" ")}`);
  for (const target of TARGETS) {
    console.log([Deno.execPath(), ...compileArgs(target)].map(shellQuote).join(" "));
  }
  console.log(`# restore ${BUILD_INFO}, copy ${INSTALLERS.join(" and ")} to ${DIST}/`);
  console.log(`# write ${DIST}/SHA256SUMS`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
