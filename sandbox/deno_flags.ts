/**
 * The Deno flags the agent's main process runs with, read from `deno_flags.json`.
 *
 * That file is the single source: `scripts/interpreter` reads it with sed (one string per line)
 * and `scripts/compile.ts` bakes it into release binaries. `--no-prompt` comes first and is never
 * dropped: without it a denied operation in a terminal opens a permission prompt that takes over
 * the screen (reference/sandbox.md §1.4).
 */
import flags from "./deno_flags.json" with { type: "json" };

/** Permission flags for `deno run` / `deno compile` of `main.ts`, `--no-prompt` first. */
export const DENO_PERMISSION_FLAGS: readonly string[] = Object.freeze([...flags]);
