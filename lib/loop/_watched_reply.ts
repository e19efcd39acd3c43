import { type Block, emptyUsage, type Message } from "../model/message.ts";
import type { ReplyChannel, ReplyCut, ToolHookChain } from "./tool_hooks.ts";

/** A reply a link of the hook chain cut off while it streamed, as it is kept. */
export interface CutReply {
  message: Message & { role: "assistant" };
  cut: ReplyCut;
}

/** A reply as it streams, watched by the hook chain's links for a reason to cut it off. */
export class WatchedReply {
  readonly #watch: ReturnType<ToolHookChain["watchReply"]>;
  readonly #sofar: Record<ReplyChannel, string> = { text: "", reasoning: "" };

  constructor(hooks: ToolHookChain) {
    this.#watch = hooks.watchReply();
  }

  /** Takes the next piece; once a link cuts the reply, the reply as it is kept. */
  push(channel: ReplyChannel, piece: string): CutReply | undefined {
    if (!this.#watch) return undefined;
    this.#sofar[channel] += piece;
    const cut = this.#watch.push(channel, piece);
    if (!cut) return undefined;
    const kept = { ...this.#sofar, [channel]: this.#sofar[channel].slice(0, cut.keep) };
    const blocks: Block[] = [
      ...(kept.reasoning ? [{ type: "thinking" as const, text: kept.reasoning }] : []),
      ...(kept.text ? [{ type: "text" as const, text: kept.text }] : []),
    ];
    // The provider reports usage at the end of a reply, which a cut-off reply never reaches.
    return { message: { role: "assistant", blocks, stop: "max_tokens", usage: emptyUsage() }, cut };
  }

  /** The reply starts over (a retried stream). */
  reset(): void {
    this.#watch?.reset();
    this.#sofar.text = this.#sofar.reasoning = "";
  }
}
