/**
 * An ACP prompt as the session's blocks, as the OI fork turns it into model input: text as text,
 * an image as an image, a resource link as a Markdown link, an embedded text resource as a
 * `<context ref="URI">` block, an embedded image as an image.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { Block } from "../../model/message.ts";
import { UsageError } from "../../errors.ts";

/** The session's blocks for `prompt`; a `UsageError` for content we do not take (audio). */
export function promptBlocks(prompt: ContentBlock[]): Block[] {
  return prompt.map(blockOf);
}

function blockOf(block: ContentBlock): Block {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image", mime: block.mimeType, base64: block.data };
    case "resource_link":
      return { type: "text", text: `[${block.title ?? block.name}](${block.uri})` };
    case "resource": {
      const { resource } = block;
      if ("text" in resource) {
        return {
          type: "text",
          text: `<context ref="${resource.uri}">\n${resource.text}\n</context>`,
        };
      }
      if (resource.mimeType?.startsWith("image/")) {
        return { type: "image", mime: resource.mimeType, base64: resource.blob };
      }
      const mime = resource.mimeType ? `, ${resource.mimeType}` : "";
      return {
        type: "text",
        text: `<context ref="${resource.uri}">(binary content${mime}, not shown)</context>`,
      };
    }
    case "audio":
      throw new UsageError("Cannot take audio in a prompt: this agent reads text and images", {
        hint: "Send the audio's transcript as text instead",
      });
  }
}

/** The text of a prompt's text blocks, joined: what a slash command is read from. */
export function promptText(prompt: ContentBlock[]): string {
  return prompt.flatMap((b) => b.type === "text" ? [b.text] : []).join("\n");
}
