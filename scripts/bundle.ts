// deno-lint-ignore-file no-console -- a command-line script; its output is the point
/**
 * Builds the bundle `scripts/interpreter` runs: `deno bundle --code-splitting` of `main.ts` and
 * every module `main.ts` and the sandbox start as programs of their own (lib/cli/entry_modules.ts),
 * so that a launch reads a few files of plain JavaScript instead of hundreds of TypeScript and
 * CommonJS modules. Dynamic imports stay separate chunks, loaded only when used (a single-file
 * bundle parses the 4.3 MB tokenizer tables at every start and was slower than the sources).
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env scripts/bundle.ts [--cache DIR]
 *
 * The bundle is `DIR/bundle-<hash>/main.js` (DIR: `.cache/bundle`, gitignored), where the hash
 * covers main.ts, deno.json, deno.lock, lib/, harnesses/, sandbox/, this file, the checkout's
 * path and the Deno version. It is built in a temporary folder and renamed into place, so a
 * launch never sees half a bundle; `DIR/current` then names it, with its modification time set to
 * when hashing began (`scripts/interpreter` rebuilds when a source file is newer). It prints the
 * path of main.js. A failed build records `failed-<hash>` in `DIR/current` and the log in
 * `DIR/failed.log`, prints one note, and exits 1: the launcher runs the sources until a source
 * changes.
 *
 * Bundled modules share the URL of their chunk, so before bundling, each `import.meta.url` in a
 * copy of lib/ and sandbox/ is replaced by the original file's URL: files a module finds beside
 * itself (harnesses, texts, the git commit) are still found in the checkout. After bundling, the
 * output is rewritten (`rewriteChunks`): Node's built-ins load only when a package requires one,
 * imports of chunks are computed, and an import of a CommonJS package's chunk gets its names.
 */
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ENTRY_MODULES } from "../lib/cli/entry_modules.ts";

/** The checkout this script belongs to. */
export const REPO = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");
/** Where `scripts/interpreter` keeps bundles unless INTERPRETER_BUNDLE_DIR says otherwise. */
export const DEFAULT_CACHE = join(REPO, ".cache", "bundle");
/** Files and folders whose content decides the bundle; `scripts/interpreter` lists the same. */
export const HASHED = [
  "main.ts",
  "deno.json",
  "deno.lock",
  "lib",
  "harnesses",
  "sandbox",
  "scripts/bundle.ts",
];
/** What the bundler reads: the hashed paths less harnesses/ (read at run time, not imported). */
const STAGED = ["main.ts", "deno.json", "deno.lock", "lib", "sandbox"];
/**
 * Packages left to Deno at run time: marked-terminal's emoji table is `require("./emojis")` of a
 * JSON file, which the bundler cannot resolve.
 */
const EXTERNAL = ["marked-terminal"];
/** Bundles kept besides the current one, newest first, whether or not a process runs them. */
const KEEP_RECENT = 2;
/** Without /proc to tell which bundles run: how long one no longer current is kept. */
const KEEP_UNUSED_MS = 24 * 3_600_000;

/** Every file under `paths` (relative to `root`), sorted, as relative paths with "/". */
async function listFiles(root: string, paths: string[]): Promise<string[]> {
  const files: string[] = [];
  async function walk(rel: string): Promise<void> {
    const info = await Deno.lstat(join(root, rel)).catch(() => undefined);
    if (info?.isFile) files.push(rel);
    if (!info?.isDirectory) return;
    for await (const entry of Deno.readDir(join(root, rel))) await walk(`${rel}/${entry.name}`);
  }
  for (const path of paths) await walk(path);
  return files.sort();
}

/** The hash naming the bundle of the checkout at `root`: file names and contents, path, Deno. */
export async function sourceHash(root: string): Promise<string> {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [encoder.encode(`${root}\0${Deno.version.deno}\0`)];
  for (const file of await listFiles(root, HASHED)) {
    parts.push(
      encoder.encode(`${file}\0`),
      await Deno.readFile(join(root, file)),
      new Uint8Array(1),
    );
  }
  const all = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return Array.from(digest.slice(0, 12), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A module's text with each `import.meta.url` replaced by `url`, the module's real location. */
export function pinModuleUrl(text: string, url: string): string {
  return text.replaceAll("import.meta.url", JSON.stringify(url));
}

/** How `deno bundle` gives bundled CommonJS its `require`: eagerly, loading node:module. */
const EAGER_REQUIRE =
  'import { createRequire as __deno_internal_createRequire } from "node:module";\n' +
  "var __require = __deno_internal_createRequire(import.meta.url);\n";
/** The same, looked up when first called: bundled packages only require Node's built-ins. */
const LAZY_REQUIRE = "var __require = (id) => globalThis.process.getBuiltinModule(id);\n";

/**
 * A bundled file with `require` made lazy. The eager one loads Deno's Node compatibility layer in
 * every program of the bundle, `--version` included, though only CommonJS packages use it.
 */
export function lazyRequire(text: string): string {
  return text.replace(EAGER_REQUIRE, LAZY_REQUIRE);
}

/**
 * A chunk that is a CommonJS package imported dynamically: the bundler gives it only
 * `export default require_x();`, so the names Deno's own loader would export beside `default`
 * (`parseDocument` of yaml, `Ajv` of ajv) are missing unless the importer adds them.
 */
export function isCommonJsChunk(text: string): boolean {
  return /^export default require_\w+\(\);\s*$/m.test(text) &&
    text.match(/^export\b/gm)?.length === 1;
}

/** What an import of a CommonJS chunk resolves to: its exports by name, and as `default`. */
const COMMONJS_NAMESPACE = ".then((m) => ({ ...m.default, default: m.default }))";

/**
 * A bundled file whose imports of other chunks (`import("./chunk.js")`, relative paths for which
 * `isChunk` is true) are computed. Deno reads and parses every literal dynamic import of a module
 * it loads, so the 3.4 MB tokenizer chunk would be parsed by each `exec` that never counts a
 * token; a computed one is read when it runs. An import of a chunk for which `isCommonJs` is true
 * also gets the package's named exports, as Deno gives them when it runs the sources.
 */
export function computedImports(
  text: string,
  isChunk: (path: string) => boolean,
  isCommonJs: (path: string) => boolean = () => false,
): string {
  return text.replace(/\bimport\("(\.\.?\/[^"\n]+\.js)"\)/g, (call, path: string) => {
    if (!isChunk(path)) return call;
    const computed = `import(new URL(${JSON.stringify(path)}, import.meta.url).href)`;
    return isCommonJs(path) ? computed + COMMONJS_NAMESPACE : computed;
  });
}

/** Applies `lazyRequire` and `computedImports` to every file of the bundle in `out`. */
async function rewriteChunks(out: string): Promise<void> {
  const files = (await listFiles(out, ["."])).map((file) => join(out, file));
  const texts = new Map<string, string>();
  for (const file of files) {
    if (file.endsWith(".js")) texts.set(file, await Deno.readTextFile(file));
  }
  const commonJs = new Set([...texts].filter(([, text]) => isCommonJsChunk(text)).map(([f]) => f));
  for (const [file, text] of texts) {
    const isChunk = (path: string) => texts.has(join(dirname(file), path));
    const isCommonJs = (path: string) => commonJs.has(join(dirname(file), path));
    const rewritten = computedImports(lazyRequire(text), isChunk, isCommonJs);
    if (rewritten !== text) await Deno.writeTextFile(file, rewritten);
  }
}

/** Copies what the bundler reads into `stage`, pinning module URLs in lib/ and sandbox/. */
async function stageSources(root: string, stage: string): Promise<void> {
  for (const file of await listFiles(root, STAGED)) {
    await Deno.mkdir(dirname(join(stage, file)), { recursive: true });
    if (file.endsWith(".ts") && file !== "main.ts") {
      const text = await Deno.readTextFile(join(root, file));
      const url = pathToFileURL(join(root, file)).href;
      await Deno.writeTextFile(join(stage, file), pinModuleUrl(text, url));
    } else {
      await Deno.copyFile(join(root, file), join(stage, file));
    }
  }
}

/** The `deno bundle` arguments for `entries` (paths) under `config` (deno.json), into `out`. */
function bundleArgs(entries: string[], config: string, out: string): string[] {
  return [
    "bundle",
    "--quiet",
    "--frozen",
    "--platform",
    "deno",
    "--code-splitting",
    ...EXTERNAL.flatMap((name) => ["--external", name]),
    "--config",
    config,
    "--outdir",
    out,
    ...entries,
  ];
}

/** Points `cache/current` at `name`, atomically, dated `since`. */
async function setCurrent(cache: string, name: string, since: Date): Promise<void> {
  const temp = join(cache, `current.${crypto.randomUUID()}`);
  await Deno.writeTextFile(temp, `${name}\n`);
  await Deno.utime(temp, since, since);
  await Deno.rename(temp, join(cache, "current"));
}

/**
 * The bundles named on running processes' command lines (a session, its file helper), read from
 * /proc; undefined where there is no /proc.
 */
async function bundlesInUse(): Promise<Set<string> | undefined> {
  const used = new Set<string>();
  try {
    for await (const entry of Deno.readDir("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
      for (const match of cmdline.matchAll(/\/(bundle-[0-9a-f]{24})\//g)) used.add(match[1]);
    }
  } catch {
    return undefined;
  }
  return used;
}

/**
 * Removes old bundles: not `current`, not among the `KEEP_RECENT` newest (a launch may have just
 * read their name), and not run by a process (a long session loads chunks as it goes; without
 * /proc, not used for `KEEP_UNUSED_MS`); and temporary folders of builds that died.
 */
export async function pruneOld(cache: string, current: string): Promise<void> {
  const old: { name: string; time: number }[] = [];
  for await (const entry of Deno.readDir(cache)) {
    if (!entry.isDirectory || entry.name === current) continue;
    const info = await Deno.stat(join(cache, entry.name)).catch(() => undefined);
    const time = info?.mtime?.getTime() ?? 0;
    if (entry.name.startsWith("bundle-")) old.push({ name: entry.name, time });
    if (entry.name.startsWith("tmp-") && Date.now() - time > KEEP_UNUSED_MS) {
      await Deno.remove(join(cache, entry.name), { recursive: true }).catch(() => {});
    }
  }
  const inUse = await bundlesInUse();
  old.sort((a, b) => b.time - a.time);
  for (const { name, time } of old.slice(KEEP_RECENT)) {
    if (inUse ? inUse.has(name) : Date.now() - time < KEEP_UNUSED_MS) continue;
    await Deno.remove(join(cache, name), { recursive: true }).catch(() => {});
  }
}

/**
 * Bundles `entries` under `config` into `out` as `scripts/interpreter`'s bundle is: the bundler's
 * output, then `rewriteChunks`. Throws with the bundler's output when it fails.
 */
export async function bundleInto(entries: string[], config: string, out: string): Promise<void> {
  await runBundler(bundleArgs(entries, config, out));
  await rewriteChunks(out);
}

/** Runs `deno bundle`; throws with its output when it fails. */
async function runBundler(args: string[]): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), { args, stdout: "piped", stderr: "piped" })
    .output();
  if (out.success) return;
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  throw new Error(`deno bundle exited with code ${out.code}`, {
    cause: `deno ${args.join(" ")}\n${text}`,
  });
}

/** Builds (or finds) the bundle of `root` in `cache`; returns the path of its main.js. */
export async function buildBundle(root: string, cache: string): Promise<string> {
  const since = new Date();
  await Deno.mkdir(cache, { recursive: true });
  const hash = await sourceHash(root);
  const name = `bundle-${hash}`;
  const main = join(cache, name, "main.js");
  try {
    if (!await Deno.stat(main).then(() => true, () => false)) {
      const temp = await Deno.makeTempDir({ dir: cache, prefix: "tmp-" });
      try {
        const stage = join(temp, "src");
        await stageSources(root, stage);
        const entries = ["main.ts", ...Object.values(ENTRY_MODULES)].map((f) => join(stage, f));
        await bundleInto(entries, join(stage, "deno.json"), join(temp, "out"));
        // Another launch may have built the same bundle meanwhile: then its copy stays.
        await Deno.rename(join(temp, "out"), join(cache, name)).catch(async (error) => {
          if (!await Deno.stat(main).then(() => true, () => false)) throw error;
        });
      } finally {
        await Deno.remove(temp, { recursive: true }).catch(() => {});
      }
    }
  } catch (error) {
    const detail = error instanceof Error ? `${error.stack}\n${error.cause ?? ""}` : String(error);
    await Deno.writeTextFile(join(cache, "failed.log"), detail).catch(() => {});
    await setCurrent(cache, `failed-${hash}`, since).catch(() => {});
    throw error;
  }
  await setCurrent(cache, name, since);
  await Deno.utime(join(cache, name), new Date(), new Date());
  await Deno.remove(join(cache, "failed.log")).catch(() => {});
  await pruneOld(cache, name);
  return main;
}

async function main(args: string[]): Promise<number> {
  const at = args.indexOf("--cache");
  const cache = at >= 0 && args[at + 1] ? args[at + 1] : DEFAULT_CACHE;
  try {
    console.log(await buildBundle(REPO, cache));
    return 0;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const log = join(cache, "failed.log");
    console.error(`note: running interpreter from its sources: no bundle (${reason}; see ${log})`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
