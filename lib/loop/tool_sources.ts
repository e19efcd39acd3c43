/**
 * Where tool sources meet the harness: each source tool gets the wire name the harness gives it
 * (`source_tool_name`) and a place, sent with every request or deferred behind the harness's
 * tool search, and from then on it is a tool of the turn like any harness tool. Nothing else
 * about it is the harness's business.
 */
import * as z from "zod";
import { ToolError } from "../errors.ts";
import { resolveCall, type ResolvedCall } from "../harness/call.ts";
import type { Harness, HarnessTool } from "../harness/types.ts";
import type { Capability } from "../tools/capability.ts";
import type { ImageData, SourceTool, ToolSource } from "../tools/tool_source.ts";

/** The wire name template when the harness gives none (the Codex and Claude Code convention). */
export const DEFAULT_SOURCE_TOOL_NAME = "mcp__{source}__{tool}";
/** The longest tool name every wire API accepts. */
const MAX_NAME = 64;
/** Capability ids of source tools start with this; no capability of our own has a colon. */
export const SOURCE_CAPABILITY_PREFIX = "source:";

/** How source tools are placed. */
export interface SourcePlacement {
  /**
   * Defer every source tool when their declarations together pass this many tokens (about four
   * characters each) and the harness has a tool search; unset sends them all directly.
   */
  deferAboveTokens?: number;
}

/** The tools of one turn: the harness's and the sources', and how a call finds its tool. */
export interface TurnTools {
  /** The harness with the source tools added to its tools. */
  harness: Harness;
  /** Matches a call to its tool and maps its arguments (`resolveCall`, source-aware). */
  resolve(call: { name: string; args: unknown; rawArgs?: string }): ResolvedCall;
}

/** The wire name harness `h` gives tool `tool` of source `source`. */
export function sourceToolName(h: Harness, source: string, tool: string): string {
  const name = (h.sourceToolName ?? DEFAULT_SOURCE_TOOL_NAME)
    .replaceAll("{source}", wireSafe(source))
    .replaceAll("{tool}", wireSafe(tool));
  if (name.length <= MAX_NAME) return name;
  const hash = `_${fnv1a(name)}`;
  return name.slice(0, MAX_NAME - hash.length) + hash;
}

/**
 * Asks every source for its tools and adds them to the harness's, named and placed by the
 * harness. A tool whose wire name is taken (by the harness or an earlier source: two names that
 * differ only in characters the wire does not take, or were cut to the same length) gets a
 * distinct suffix, and `warn` names both; a source whose listing fails is left out.
 */
export async function turnTools(
  h: Harness,
  sources: readonly ToolSource[],
  opts: { placement?: SourcePlacement; signal: AbortSignal; warn?: (message: string) => void },
): Promise<TurnTools> {
  // A text protocol (swe-agent, terminus-2) has no tool declarations to add them to.
  if (sources.length === 0 || h.protocol) {
    return { harness: h, resolve: (call) => resolveCall(h, call) };
  }
  const owners = new Map(h.tools.map((t) => [t.declaration.name, `the harness's tool`]));
  const added: Array<{ tool: HarnessTool; source: SourceTool }> = [];
  for (const source of sources) {
    const offered = await source.tools(opts.signal).catch(() => [] as SourceTool[]);
    for (const tool of offered) {
      const owner = `tool "${tool.name}" of "${source.id}"`;
      const wanted = sourceToolName(h, source.id, tool.name);
      const name = owners.has(wanted)
        ? distinctName(wanted, `${source.id}/${tool.name}`, owners)
        : wanted;
      if (name !== wanted) {
        opts.warn?.(
          `The ${owner} and ${owners.get(wanted)} both become "${wanted}" on the wire; ` +
            `the ${owner} is sent as "${name}"`,
        );
      }
      owners.set(name, owner);
      added.push({ tool: harnessToolFor(name, source.id, tool), source: tool });
    }
  }
  const defer = shouldDefer(h, added.map((a) => a.tool), opts.placement);
  for (const { tool } of added) tool.deferred = defer;
  const harness: Harness = { ...h, tools: [...h.tools, ...added.map((a) => a.tool)] };
  const byName = new Map(added.map((a) => [a.tool.declaration.name, a]));
  return {
    harness,
    resolve(call) {
      const hit = byName.get(call.name);
      if (!hit) return resolveCall(harness, call);
      return {
        tool: hit.tool,
        capability: sourceCapability(hit.tool.capability, hit.source),
        input: sourceArgs(call),
      };
    },
  };
}

/** `wanted` with a suffix from `key` (and a count, if need be) that no tool has yet. */
function distinctName(wanted: string, key: string, taken: ReadonlyMap<string, string>): string {
  const hash = fnv1a(key);
  for (let n = 1;; n++) {
    const suffix = n === 1 ? `_${hash}` : `_${hash}_${n}`;
    const name = wanted.slice(0, MAX_NAME - suffix.length) + suffix;
    if (!taken.has(name)) return name;
  }
}

function harnessToolFor(name: string, sourceId: string, tool: SourceTool): HarnessTool {
  return {
    declaration: { name, description: tool.description, parameters: tool.inputSchema },
    capability: `${SOURCE_CAPABILITY_PREFIX}${sourceId}/${tool.name}`,
    args: {},
    fixedArgs: {},
    scale: {},
    result: { template: "{output}", errorIf: ["is_error"] },
  };
}

function shouldDefer(h: Harness, tools: HarnessTool[], placement?: SourcePlacement): boolean {
  const limit = placement?.deferAboveTokens;
  if (limit === undefined || tools.length === 0) return false;
  if (!h.tools.some((t) => t.capability === "tools.search")) return false;
  const chars = JSON.stringify(tools.map((t) => t.declaration)).length;
  return chars / 4 > limit;
}

/** A source tool as a capability: its arguments pass as they are; the tool checks them. */
function sourceCapability(id: string, tool: SourceTool): Capability {
  return {
    id,
    input: z.record(z.string(), z.unknown()),
    mutates: tool.mutates,
    async run(input, ctx) {
      const result = await tool.run(input as Record<string, unknown>, ctx);
      return {
        output: result.text,
        isError: result.isError === true,
        ...(result.images?.length ? { images: result.images } : {}),
        ...(result.answer ? { result: result.answer } : {}),
      };
    },
  };
}

/** The images a source tool's output carries (`SourceToolResult.images`), for the loop to send. */
export function sourceImages(capability: string, output: unknown): ImageData[] {
  if (!capability.startsWith(SOURCE_CAPABILITY_PREFIX)) return [];
  const images = (output as { images?: unknown } | null)?.images;
  if (!Array.isArray(images)) return [];
  return images.filter((i): i is ImageData =>
    typeof i?.mime === "string" && typeof i?.base64 === "string"
  );
}

/** The model's arguments as a JSON object; text is parsed, nothing becomes `{}`. */
function sourceArgs(call: { name: string; args: unknown; rawArgs?: string }) {
  let args = call.args;
  if (typeof args === "string" || (args == null && call.rawArgs !== undefined)) {
    const text = typeof args === "string" ? args : call.rawArgs!;
    try {
      args = text.trim() === "" ? {} : JSON.parse(text);
    } catch {
      throw new ToolError(
        `Cannot run ${call.name}: its arguments are not valid JSON`,
        "Send the arguments as one JSON object",
      );
    }
  }
  if (args == null) return {};
  if (typeof args !== "object" || Array.isArray(args)) {
    throw new ToolError(
      `Cannot run ${call.name}: its arguments must be a JSON object`,
      "Send the arguments as one JSON object",
    );
  }
  return args as Record<string, unknown>;
}

/** Letters, digits, `_` and `-` as they are; anything else `_`. */
function wireSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** FNV-1a of `text`, base 36: a short stable suffix that keeps cut names apart. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36).padStart(7, "0");
}
