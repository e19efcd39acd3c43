import { HarnessError } from "../../errors.ts";
import type { HarnessSpec } from "../spec_schema.ts";
import type { HarnessTool, TextProtocol } from "../types.ts";
import { miniSweAgent } from "./mini_swe_agent.ts";
import { sweAgent } from "./swe_agent.ts";
import { terminus2 } from "./terminus_2.ts";
import type { ProtocolDefinition } from "./types.ts";

/** Every text protocol a harness can name in `[interaction] protocol`. */
export const PROTOCOLS: Readonly<Record<string, ProtocolDefinition>> = Object.freeze({
  swe_agent: sweAgent,
  mini_swe_agent: miniSweAgent,
  terminus_2: terminus2,
});

/**
 * The text protocol a spec's `[interaction]` table selects, or undefined for function calls.
 * Throws HarnessError, naming the key, for a missing or unknown protocol, undeclared tools and
 * missing, unknown or badly placeheld messages.
 */
export function resolveProtocol(
  interaction: HarnessSpec["interaction"],
  opts: { tools: HarnessTool[]; at: (key: string) => string },
): TextProtocol | undefined {
  const { at } = opts;
  const known = Object.keys(PROTOCOLS).map((id) => `"${id}"`).join(", ");
  if (!interaction || interaction.kind === "function_calls") {
    if (interaction?.protocol !== undefined) {
      throw new HarnessError(`${at("interaction.protocol")}: set only when kind = "text"`, {
        hint: 'Set kind = "text" or remove protocol',
      });
    }
    return undefined;
  }
  const id = interaction.protocol;
  if (id === undefined) {
    throw new HarnessError(`${at("interaction.protocol")}: required when kind = "text"`, {
      hint: `Use one of: ${known}`,
    });
  }
  const def = Object.hasOwn(PROTOCOLS, id) ? PROTOCOLS[id] : undefined;
  if (!def) {
    throw new HarnessError(`${at("interaction.protocol")}: unknown protocol "${id}"`, {
      hint: `Use one of: ${known}`,
    });
  }
  const names = opts.tools.map((t) => t.declaration.name);
  for (const tool of def.tools) {
    if (!names.includes(tool)) {
      throw new HarnessError(`${at("tools")}: protocol "${id}" needs a tool named "${tool}"`, {
        hint: `Declare a [[tools]] entry whose declaration has name "${tool}"`,
      });
    }
  }
  checkMessages(interaction.messages, def, at);
  return def.create(interaction.messages);
}

function checkMessages(
  messages: Record<string, string>,
  def: ProtocolDefinition,
  at: (key: string) => string,
): void {
  const wanted = Object.keys(def.messages);
  for (const name of wanted) {
    if (!Object.hasOwn(messages, name)) {
      throw new HarnessError(`${at(`interaction.messages.${name}`)}: missing`, {
        hint: `This protocol needs messages: ${wanted.join(", ")}`,
      });
    }
  }
  for (const [name, text] of Object.entries(messages)) {
    const allowed = def.messages[name];
    if (!Object.hasOwn(def.messages, name)) {
      throw new HarnessError(`${at(`interaction.messages.${name}`)}: unknown message`, {
        hint: `This protocol uses messages: ${wanted.join(", ")}`,
      });
    }
    for (const m of text.matchAll(/\{([a-z_][a-z0-9_]*)\}/g)) {
      if (!allowed.includes(m[1])) {
        throw new HarnessError(
          `${at(`interaction.messages.${name}`)}: unknown placeholder "{${m[1]}}"`,
          { hint: allowed.length ? `Use ${allowed.map((a) => `{${a}}`).join(", ")}` : "" },
        );
      }
    }
  }
}
