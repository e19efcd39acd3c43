/**
 * Ollama's Anthropic-compatible Messages API (`POST /v1/messages`, Ollama 0.14 and later), for
 * `wire_api = "messages"` in `[model_providers.ollama]`: the request Claude Code sends, to a local
 * model. The body is the Messages adapter's; what Ollama adds is checked first, from
 * `/api/show` (asked once per model): a model without the "thinking" capability gets no
 * `thinking` (Ollama refuses it with HTTP 400), and one without "tools" is refused before any
 * request that has tools. Failures get Ollama's fixes (`ollama pull`, `ollama serve`).
 */
import type { ProviderFailure, StreamEvent } from "../model/stream.ts";
import { createMessagesProvider } from "./anthropic_messages.ts";
import {
  type OllamaModel,
  ollamaRoot,
  showModel,
  supportsTools,
  thinkStyle,
} from "./ollama_api.ts";
import { ollamaFailure, toolsRefusal } from "./ollama_errors.ts";
import type { Provider, ProviderSettings } from "./types.ts";

/** A Messages provider for Ollama; see the module comment. */
export function createOllamaMessagesProvider(settings: ProviderSettings): Provider {
  const root = ollamaRoot(settings.baseUrl);
  const thinking = createMessagesProvider(settings);
  const plain = createMessagesProvider({
    ...settings,
    compat: { ...settings.compat, thinking: "off" },
  });
  return {
    settings,
    async *stream(request, signal): AsyncIterable<StreamEvent> {
      const model: OllamaModel | undefined = await showModel(root, request.model)
        .catch(() => undefined);
      if (model && request.tools.length > 0 && !supportsTools(model)) {
        yield { type: "error", error: toolsRefusal(request.model) };
        return;
      }
      const thinks = !model?.capabilities || thinkStyle(model) !== undefined;
      const provider = thinks ? thinking : plain;
      for await (const event of provider.stream(request, signal)) {
        yield event.type === "error"
          ? { type: "error", error: messagesFailure(event.error, { model: request.model, root }) }
          : event;
      }
    },
  };
}

/** Ollama's fixes; an Ollama without the endpoint (before 0.14, "404 page not found"): update. */
function messagesFailure(
  failure: ProviderFailure,
  ctx: { model: string; root: string },
): ProviderFailure {
  if (failure.status === 404 && /page not found/i.test(failure.message)) {
    return {
      ...failure,
      message: `Ollama at ${ctx.root} has no Messages API (/v1/messages): it came with Ollama 0.14`,
      hint: 'Update Ollama, or remove wire_api = "messages" from [model_providers.ollama] to use ' +
        "its native API",
      retryable: false,
    };
  }
  return ollamaFailure(failure, ctx);
}
