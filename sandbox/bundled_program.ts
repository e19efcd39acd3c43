/**
 * Programs this process starts again (the file-tool helper, `interpreter` itself for eval) run
 * from the same bundle as this process when `scripts/interpreter` started it from one
 * (scripts/bundle.ts), so that they too skip the sources' module graph.
 */
import { fileURLToPath } from "node:url";

/** A bundle's main module: `…/bundle-<hash>/main.js`. */
const BUNDLE_MAIN = /\/bundle-[0-9a-f]{24}\/main\.js$/;

/**
 * The bundled copy of `source` (a path from the repository root, like "sandbox/fs_helper_main.ts")
 * when the main module is a bundle's main.js; else undefined (sources, tests, compiled binaries).
 */
export function bundledProgram(source: string, mainModule = Deno.mainModule): string | undefined {
  if (!mainModule.startsWith("file:") || !BUNDLE_MAIN.test(mainModule)) return undefined;
  return fileURLToPath(new URL(`./${source.replace(/\.ts$/, ".js")}`, mainModule));
}
