/**
 * What a local provider's start-up check takes and finds, shared by the dispatcher
 * (`models.ts`) and the checks themselves (`ollama.ts`, `lmstudio.ts`).
 */
import type { UserError } from "../../errors.ts";

/** What a check needs besides the provider. */
export interface LocalCheckOptions {
  model: string;
  /** False when the model came from no flag or config: the check picks one from the server. */
  chosen: boolean;
  /** `model_context_window`, when set. */
  contextWindow?: number;
}

/** What a check found. */
export interface LocalSetup {
  /** The model to use: the chosen one, or the one picked from the server. */
  model: string;
  /** The session's context window, when the server decides it. */
  contextWindow?: number;
  /** Start-up notes for stderr, one sentence each. */
  notes: string[];
  /** Thrown once the harness is known, if it calls tools: the model cannot. */
  toolsProblem?: UserError;
  /** The model's families as the server reports them ("qwen2", "llama"), for the harness choice. */
  families?: string[];
  /** The model's parameter count as the server reports it ("0.6B"), for the lean surface. */
  parameters?: { count: number; text: string };
}

/** A token count for messages: 65,536. */
export function tokenCount(tokens: number): string {
  return tokens.toLocaleString("en-US");
}
