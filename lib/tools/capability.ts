import type { z } from "zod";
import type { ToolCatalog } from "./tool_search.ts";
import type { CommandSandbox } from "../../sandbox/command_sandbox.ts";
import type { FileSystem } from "../../sandbox/file_system.ts";
import type { ScratchSpace } from "../../sandbox/scratch_space.ts";
import type { AskUser } from "./ask_user.ts";
import type { Resources } from "./resources.ts";
import type { WebFetchNet } from "./_fetch_guard.ts";

/** What a capability may use: the seams tests replace with real temp dirs and processes. */
export interface ToolContext {
  /** Absolute working directory; relative paths resolve against it. */
  cwd: string;
  signal: AbortSignal;
  /** Environment for spawned commands. */
  env: Record<string, string>;
  /**
   * Session data shared between calls (todos, loaded deferred tools, read-before-edit records,
   * undo history): JSON values only, saved with `snapshotState` and brought back on resume with
   * `restoreState` (`session_state.ts`, where every key is declared).
   */
  state: Map<string, unknown>;
  /**
   * What tools leave running (background jobs, the terminal, environment probes), ended as a
   * whole by disposing it and never saved. Optional while callers move over: without it,
   * `resourcesOf(ctx)` keeps them in `state` as before, and `disposeState` ends them there.
   */
  resources?: Resources;
  /** The harness's deferred tools, for `tools.search` and `tools.call`; absent when none. */
  toolCatalog?: ToolCatalog;
  /** Whether the sandbox policy allows network access; absent means it does not. */
  networkAllowed?: boolean;
  /** Hosts web fetch may reach on this machine or private networks (`web_fetch.allowed_hosts`). */
  webFetch?: WebFetchNet;
  /** The interpreter home (`OPENINTERPRETER_HOME`, default `~/.openinterpreter`). */
  home?: string;
  /** True for project files held back because they changed while an earlier session ran. */
  isHeldBack?: (path: string) => boolean;
  /**
   * Runs a nested agent turn (a sub-agent) and returns its final text. Absent where sub-agents
   * are unavailable, including inside a sub-agent, which bounds nesting to one level.
   */
  runSubagent?: (
    req: { prompt: string; description?: string; agentType?: string },
  ) => Promise<{ finalText: string; toolCalls: number; status: string }>;
  /** Wraps spawned commands in the session's OS sandbox; absent means spawn directly. */
  sandbox?: CommandSandbox;
  /**
   * The session's file system (the sandboxed helper, or this process in danger-full-access):
   * every read, write, listing and removal a capability makes goes through it (`fsOf(ctx)`).
   * A file tool on a context without it (from untyped code) throws; it never falls back.
   */
  fs: FileSystem;
  /**
   * The agent's own files (job output, terminal configuration), outside the workspace
   * (`scratchOf(ctx)`). Optional like `fs`: a tool that needs it throws without it.
   */
  scratch?: ScratchSpace;
  /** Puts questions to the user (`user.ask`); absent where no one can answer (exec, no TTY). */
  askUser?: AskUser;
}

/**
 * A tool capability, written once and shared by every harness. `run` returns structured data;
 * the harness renders it as model text. Throw `ToolError` for failures the model can correct.
 */
export interface Capability<I = unknown, O = unknown> {
  id: string;
  input: z.ZodType<I>;
  mutates: boolean;
  /**
   * Other spellings the input accepts for a nested key (`old_string`: `oldText`, …), so a
   * harness can name it in its own words.
   */
  spellings?: Readonly<Record<string, readonly string[]>>;
  run(input: I, ctx: ToolContext): Promise<O>;
}

/** Declares a capability with its types inferred from the zod input schema. */
export function defineCapability<S extends z.ZodType, O>(
  cap: {
    id: string;
    input: S;
    mutates: boolean;
    spellings?: Readonly<Record<string, readonly string[]>>;
    run(input: z.infer<S>, ctx: ToolContext): Promise<O>;
  },
): Capability<z.infer<S>, O> {
  // S's output type is z.infer<S>, which TypeScript cannot see through the generic bound.
  return cap as unknown as Capability<z.infer<S>, O>;
}

/**
 * The input a capability runs with: the model's own request to leave the sandbox (`escalated`,
 * `sandbox_permissions`) removed, and `escalated: true` only where the approval path granted it.
 */
export function withGrant(input: unknown, unsandboxed: boolean): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  const { escalated: _e, sandbox_permissions: _p, ...rest } = input as Record<string, unknown>;
  return unsandboxed ? { ...rest, escalated: true } : rest;
}
