/** What Ollama's failures mean and how to fix them, for the chat adapter and start-up alike. */
import type { ProviderFailure } from "../model/stream.ts";
import { HttpError } from "./_http.ts";

/** Ollama's words for a model and window that do not fit in memory. */
const OUT_OF_MEMORY =
  /requires more system memory|out of memory|memory layout cannot be allocated/i;

/** Installs Ollama's suggested model, for errors that have nothing installed to point at. */
export const SUGGESTED_MODEL = "gpt-oss:20b";

/** How to start the server, and how to point interpreter at another one. */
export function startHint(root: string): string {
  return `Start Ollama with "ollama serve" (or open the Ollama app), then try again; ` +
    `if it runs elsewhere, set OLLAMA_HOST or base_url in [model_providers.ollama] (now ${root})`;
}

/** The fix for a model that is not installed. */
export function pullHint(model: string): string {
  return `Run "ollama pull ${model}", or pick an installed model with -m (see "ollama list")`;
}

/** A request with tools for a model that cannot call them. */
export function toolsRefusal(model: string): ProviderFailure {
  return {
    message: `Ollama model "${model}" does not support tools, which the agent needs`,
    hint: 'Switch to a model whose "ollama show NAME" lists the tools capability, ' +
      `for example "ollama pull ${SUGGESTED_MODEL}"`,
    retryable: false,
  };
}

/**
 * A chat failure with Ollama's fix: a missing model gets `ollama pull`, an unreachable server how
 * to start it, a model that does not fit in memory a smaller window. Others pass unchanged.
 */
export function ollamaFailure(
  failure: ProviderFailure,
  ctx: { model: string; root: string },
): ProviderFailure {
  const text = failure.message;
  if (failure.status === 404 && /not found/i.test(text)) {
    return {
      ...failure,
      message: `Ollama has no model "${ctx.model}" installed`,
      hint: pullHint(ctx.model),
    };
  }
  if (/does not support tools/i.test(text)) return { ...failure, ...toolsRefusal(ctx.model) };
  if (OUT_OF_MEMORY.test(text)) {
    return {
      ...failure,
      hint: "The model and its context window do not fit in memory: set a smaller " +
        "model_context_window (each token of window costs memory), or use a smaller model",
      retryable: false,
    };
  }
  if (text.startsWith("Cannot reach ")) return { ...failure, hint: startHint(ctx.root) };
  return failure;
}

/**
 * A chat request's error, marked not worth a retry when it says the model does not fit in
 * memory: the same request fails the same way, after a slow load each time.
 */
export function markPermanent(error: unknown): unknown {
  if (!(error instanceof HttpError) || !OUT_OF_MEMORY.test(JSON.stringify(error.error ?? ""))) {
    return error;
  }
  const headers = new Headers(error.headers);
  headers.set("x-should-retry", "false");
  return new HttpError(error.status, { headers, body: error.error, url: error.url });
}
