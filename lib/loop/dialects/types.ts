/** What every dialect reader takes and gives (see `mod.ts` for the table of dialects). */
import type { Block, ToolDeclaration } from "../../model/message.ts";

/** The text formats recovered, one per dialect (a reader may yield more than one). */
export type CallFormat =
  | "hermes"
  | "qwen_xml"
  | "glm"
  | "fenced_json"
  | "mistral"
  | "harmony"
  | "deepseek"
  | "llama"
  | "kimi";

type ToolCallBlock = Extract<Block, { type: "tool_call" }>;

/** A call read from text; `id` only when the text carries one every wire takes. */
export type TextCall = Omit<ToolCallBlock, "type" | "id"> & { id?: string };

/** A stretch of text `[start, end)` that holds calls, or markup around them. */
export interface Found {
  start: number;
  end: number;
  format: CallFormat;
  /** Empty for markup that only frames calls found elsewhere (a harmony analysis message). */
  calls: TextCall[];
  /** Text that stays visible in place of the stretch; nothing when absent. */
  keep?: string;
  /** Reasoning the stretch held, which becomes a thinking block. */
  thinking?: string;
}

/** The advertised tools by name: the schema types the values of XML-like dialects. */
export type ToolMap = Map<string, ToolDeclaration>;

/** Reads the calls whose markup opens at `start` of `text`; undefined when it is no call. */
export type Reader = (text: string, start: number, tools: ToolMap) => Promise<Found | undefined>;
