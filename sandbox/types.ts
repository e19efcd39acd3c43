/**
 * The data types of the command sandbox, in a leaf file so every sandbox module can share them
 * without importing `command_sandbox.ts` (which imports them all).
 */

/** Values of `sandbox_mode`. */
export type SandboxMode = "read-only" | "workspace-write" | "danger-full-access";

/** A command to run, before sandboxing. */
export interface CommandRequest {
  argv: string[];
  /** Absolute working directory. */
  cwd: string;
  env: Record<string, string>;
  /** Run outside the sandbox; set only after the user approved it. */
  escalated?: boolean;
}

/** The process to spawn (with `clearEnv: true`). */
export interface SpawnSpec {
  cmd: string;
  args: string[];
  env: Record<string, string>;
}
