/**
 * The Deno flags the agent's main process runs with, read from `deno_flags.json`.
 *
 * That file is the single source: `scripts/interpreter` reads it with sed (one string per line)
 * and `scripts/compile.ts` bakes it into release binaries. `--no-prompt` comes first and is never
 * dropped: without it a denied operation in a terminal opens a permission prompt that takes over
 * the screen (reference/sandbox.md §1.4).
 *
 * The file also holds the V8 heap limits. A 1 MiB semi-space makes young-generation collections
 * frequent, so short-lived buffers (request bodies, pipe reads) are freed before they are promoted
 * and wait for a full collection. The 512 MiB old-space cap also makes V8 schedule full
 * collections earlier (1024 MiB measured 15 MiB worse); a session that truly needs more ends with
 * an out-of-memory error instead of taking the machine's memory. Together they cut the peak RSS
 * growth of a 200-step session from about 100 to 60 MiB (scripts/bench/long_session.ts).
 */
import flags from "./deno_flags.json" with { type: "json" };

/** Permission flags for `deno run` / `deno compile` of `main.ts`, `--no-prompt` first. */
export const DENO_PERMISSION_FLAGS: readonly string[] = Object.freeze([...flags]);
