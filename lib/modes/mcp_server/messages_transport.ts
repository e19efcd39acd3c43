/**
 * The MCP SDK's transport over the messages of the stdio runner (`session/stdio_protocol.ts`):
 * each message read is checked as a JSON-RPC message of MCP (a failing one is reported to
 * `onerror`, as the SDK's own stdio transport does), and the end of the messages closes it.
 */
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import type { JsonRpcMessage, StdioMessages } from "../../session/stdio_protocol.ts";

/** A transport that reads and writes the stdio runner's messages. */
export class MessagesTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #messages: StdioMessages;
  #reader: ReadableStreamDefaultReader<JsonRpcMessage> | undefined;
  #writer: WritableStreamDefaultWriter<JsonRpcMessage> | undefined;
  #closed = false;

  constructor(messages: StdioMessages) {
    this.#messages = messages;
  }

  start(): Promise<void> {
    if (this.#reader) throw new Error("MessagesTransport already started");
    this.#reader = this.#messages.readable.getReader();
    this.#writer = this.#messages.writable.getWriter();
    void this.#read(this.#reader);
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#writer) throw new Error("MessagesTransport not started");
    await this.#writer.write(message as JsonRpcMessage);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#reader?.cancel().catch(() => {});
    this.onclose?.();
  }

  async #read(reader: ReadableStreamDefaultReader<JsonRpcMessage>): Promise<void> {
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        const parsed = JSONRPCMessageSchema.safeParse(r.value);
        if (parsed.success) this.onmessage?.(parsed.data);
        else this.onerror?.(new Error(`Not a JSON-RPC message: ${JSON.stringify(r.value)}`));
      }
    } catch (error) {
      if (!this.#closed) this.onerror?.(error as Error);
    }
    await this.close();
  }
}
