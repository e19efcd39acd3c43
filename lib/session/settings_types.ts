/**
 * The settings of a running session as one value (`Session.settings`), and what changes them
 * (`Session.configure()`), and what `/model` offers to change to. lib/session/types.ts re-exports
 * these.
 */
import type { ApprovalPolicy, REASONING_EFFORTS, SandboxMode } from "../config/schema.ts";
import type { WireApi } from "../model/request_settings.ts";
import type { CatalogModel } from "../providers/catalog.ts";
import type { StopRunning } from "./checkpoints/checkpoint_types.ts";

/** A `model_reasoning_effort` value. */
export type ReasoningEffort = typeof REASONING_EFFORTS[number];

/**
 * What can change during a session, as one value (`Session.settings`): where requests go, how
 * the model is presented, and what its tools may do. `Session.configure()` changes it.
 */
export interface SessionSettings {
  /** The `model_providers` id requests go to. */
  provider: string;
  /** The wire API they go over. */
  wire: WireApi;
  model: string;
  reasoningEffort?: ReasoningEffort;
  /** The harness id. */
  harness: string;
  sandboxMode: SandboxMode;
  approvalPolicy: ApprovalPolicy;
  planMode: boolean;
  /** Why the harness is presented lean ("0.6B parameters"); undefined when it is not. */
  lean?: string;
  /** The working directory, absolute. */
  cwd: string;
  /** Where commands may write under workspace-write, the working directory first. */
  writableRoots: string[];
}

/**
 * A change of `SessionSettings` (`Session.configure()`): the parts given change together, or
 * none does.
 */
export interface SettingsUpdate {
  /**
   * "NAME" at the provider in use or "PROVIDER/NAME": refused when the list at hand (the catalog,
   * the server's list `models()` fetched) lacks it; "NAME!" takes the name as given.
   */
  model?: string;
  reasoningEffort?: ReasoningEffort;
  harness?: string;
  sandboxMode?: SandboxMode;
  approvalPolicy?: ApprovalPolicy;
  planMode?: boolean;
  /**
   * The working directory, absolute and existing (the worktree tools switch it). With it alone
   * the writable roots become it and `sandbox_workspace_write.writable_roots`; a change of these
   * two applies at once, even while a turn runs (a tool of that turn asks for it).
   */
  cwd?: string;
  /** Where commands may write under workspace-write, the working directory first. */
  writableRoots?: string[];
}

/** What `Session.configure()` may be told besides the update. */
export interface ConfigureOptions {
  /**
   * Asked to stop the background jobs and terminals a narrower sandbox mode would leave running
   * under the wider one; true stops them. Absent: they are stopped without asking.
   */
  stopRunning?: StopRunning;
}

/** One model `/model` offers. */
export interface ModelChoice {
  id: string;
  name: string;
  context?: number;
  output?: number;
  reasoning?: boolean;
  cost?: CatalogModel["cost"];
  current: boolean;
}

/** One provider `/model` offers, with the model to use and the models it has. */
export interface ProviderChoice {
  provider: string;
  name: string;
  model: string;
  current: boolean;
  /** Whether its key is set (or it needs none). */
  key: boolean;
  envKey?: string;
  /** Its models: the server's live list when it has one, else the catalog's. */
  models: ModelChoice[];
  /** Set when the list is the server's own; `error` when it could not be read. */
  live?: { error?: string };
}
