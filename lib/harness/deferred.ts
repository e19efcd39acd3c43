import { ToolError } from "../errors.ts";
import type { ToolDeclaration } from "../model/message.ts";
import { type ToolContext, withGrant } from "../tools/capability.ts";
import type { CatalogEntry, ToolCatalog } from "../tools/tool_search.ts";
import { LOADED_TOOLS_KEY } from "../tools/session_state.ts";
import { renderResult, resolveCall } from "./call.ts";
import { unknownToolError } from "./_error_texts.ts";
import type { Harness } from "./types.ts";

/**
 * Deferred tools, as Claude Code and Qwen Code use them: a tool marked `deferred = true` is
 * only named in the prompt (`{{deferred_tools}}`). A search tool (`tools.search`) loads it, and
 * from the next request on its full declaration is sent; `tools.call` runs one unloaded.
 */

/** Key in `ToolContext.state` of the deferred tool names loaded this session, in load order. */
export { LOADED_TOOLS_KEY };

/** Decides whether a call made through `tools.call` may run; same shape as the loop's hook. */
export type CallGuard = (
  call: { id: string; name: string; args: unknown },
  resolved: { capability: string; input: unknown },
) => Promise<{ allow: true; unsandboxed?: boolean } | { allow: false; reason: string }>;

/** The declarations to send: every tool not deferred, then the deferred ones loaded so far. */
export function advertisedTools(h: Harness, state: Map<string, unknown>): ToolDeclaration[] {
  const loaded = loadedNames(state);
  const always = h.tools.filter((t) => !t.deferred).map((t) => t.declaration);
  const extra = loaded.flatMap((name) => {
    const tool = h.tools.find((t) => t.deferred && t.declaration.name === name);
    return tool ? [tool.declaration] : [];
  });
  return [...always, ...extra];
}

/** Names of the deferred tools not loaded yet, in harness order. */
export function deferredToolNames(h: Harness, state: Map<string, unknown>): string[] {
  const loaded = loadedNames(state);
  return h.tools.filter((t) => t.deferred && !loaded.includes(t.declaration.name))
    .map((t) => t.declaration.name);
}

/**
 * The `ToolContext.toolCatalog` for harness `h`, recording loads in `state` (the same map the
 * loop reads with `advertisedTools`). `guard` is asked before `call` runs a tool, as the loop
 * asks `beforeToolCall`, so a call through `tools.call` is approved like a direct one.
 */
export function toolCatalog(
  h: Harness,
  state: Map<string, unknown>,
  opts: { guard: CallGuard },
): ToolCatalog {
  return {
    list: () => h.tools.filter((t) => t.deferred).map((t) => entryOf(t.declaration)),
    load(names) {
      const known = names.filter((n) => h.tools.some((t) => t.declaration.name === n));
      const loaded = loadedNames(state);
      for (const name of known) {
        const deferred = h.tools.some((t) => t.deferred && t.declaration.name === name);
        if (deferred && !loaded.includes(name)) loaded.push(name);
      }
      state.set(LOADED_TOOLS_KEY, loaded);
      return known;
    },
    call: (name, args, ctx) => callTool(h, { name, args, ctx, guard: opts.guard }),
  };
}

async function callTool(
  h: Harness,
  req: { name: string; args: unknown; ctx: ToolContext; guard: CallGuard },
): Promise<string> {
  const tool = h.tools.find((t) => t.declaration.name === req.name);
  if (!tool || tool.capability === "tools.call") {
    const deferred = h.tools.filter((t) => t.deferred).map((t) => t.declaration.name);
    const hint = deferred.length ? `Tools to call this way: ${deferred.join(", ")}` : "";
    throw unknownToolError(h, req.name, deferred, hint);
  }
  const resolved = resolveCall(h, { name: req.name, args: req.args });
  const verdict = await req.guard(
    { id: `tool_call:${req.name}`, name: req.name, args: req.args },
    { capability: resolved.capability.id, input: resolved.input },
  );
  if (!verdict.allow) throw new ToolError(verdict.reason);
  const input = withGrant(resolved.input, verdict.unsandboxed === true);
  return renderResult(resolved.tool, await resolved.capability.run(input, req.ctx));
}

function loadedNames(state: Map<string, unknown>): string[] {
  const value = state.get(LOADED_TOOLS_KEY);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function entryOf(d: ToolDeclaration): CatalogEntry {
  return { name: d.name, description: d.description, parameters: d.parameters };
}
