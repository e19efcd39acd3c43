/** What every text protocol is, in a leaf file: `mod.ts` and the protocols share it, no cycle. */
import type { TextProtocol } from "../types.ts";

/**
 * A text protocol as a harness spec names it. The protocol emits calls to the tool names in
 * `tools` (the harness must declare them) and words its messages with the harness's
 * `[interaction.messages]`, which must give exactly the names in `messages`.
 */
export interface ProtocolDefinition {
  /** Tool names the protocol's calls use. */
  tools: readonly string[];
  /** Message name → the `{placeholders}` it may use. */
  messages: Readonly<Record<string, readonly string[]>>;
  create(messages: Record<string, string>): TextProtocol;
}
