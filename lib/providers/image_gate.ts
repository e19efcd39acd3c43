/**
 * Images go only to models that take them: for a model the catalog lists without image input
 * (its `input` modalities), each image of a request (a tool's result, an attached file, an MCP
 * tool's picture) becomes a one-line note the model reads instead. The history keeps the image, so
 * a later switch to a model that takes images sends it. A model the catalog does not know (a
 * local one, a custom name) gets its images as before: nothing says it cannot read them.
 */
import type { Block, Message, ModelRequest } from "../model/message.ts";
import { type Catalog, findModel } from "./catalog.ts";
import type { Provider } from "./types.ts";

/** Whether `model` at `provider` takes images: false only when the catalog says it does not. */
export function takesImages(
  catalog: Catalog,
  provider: Pick<Provider["settings"], "id" | "baseUrl">,
  model: string,
): boolean {
  const known = findModel(catalog, provider, model);
  return known?.input === undefined || known.input.includes("image");
}

/** `provider` with its requests' images turned into notes for models that do not take them. */
export function gateImages(provider: Provider, catalog: Catalog): Provider {
  return {
    settings: provider.settings,
    stream(request, signal) {
      if (takesImages(catalog, provider.settings, request.model)) {
        return provider.stream(request, signal);
      }
      return provider.stream(withoutImages(request), signal);
    },
  };
}

/** `request` with every image block replaced by a note naming the model. */
function withoutImages(request: ModelRequest): ModelRequest {
  const note = (b: Block): Block =>
    b.type === "image"
      ? {
        type: "text",
        text: `[An image (${b.mime}) was left out: ${request.model} does not take images]`,
      }
      : b;
  const messages = request.messages.map((m): Message =>
    m.blocks.some((b) => b.type === "image") ? { ...m, blocks: m.blocks.map(note) } as Message : m
  );
  return { ...request, messages };
}
