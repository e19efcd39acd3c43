import { ToolError } from "../errors.ts";
import { type ImageResult, isImageResult } from "../tools/image_view.ts";
import type { ToolDeclaration } from "../model/message.ts";
import { withGrant } from "../tools/capability.ts";
import type { CatalogEntry, ToolCatalog, ToolContext } from "../tools/types.ts";
import { LOADED_TOOLS_KEY } from "../tools/session_state.ts";
import { renderResult, resolveCall, type ResolvedCall } from "./call.ts";
import { RenderedToolError, unknownToolError } from "./_error_texts.ts";
import type { Harness } from "./types.ts";

/**
 * Deferred tools, as Claude Code and Qwen Code use them: a tool marked `deferred = true` is
 * only named in the prompt (`{{deferred_tools}}`). A search tool (`tools.search`) loads it, and
 * from the next request on its full declaration is sent; `tools.call` runs one unloaded.
 */

/** Key in `ToolContext.state` of the deferred tool names loaded this session, in load order. */
export { LOADED_TOOLS_KEY };

/**
 * Decides whether a call made through `tools.call` may run, as the loop's hook chain does for a
 * direct call: allowed, possibly with another input to run and a grant to leave the sandbox, or
 * refused with a reason.
 */
export type CallGuard = (
  call: { id: string; name: string; args: unknown },
  resolved: { capability: string; input: unknown; mutates?: boolean },
) => Promise<
  { allow: true; unsandboxed?: boolean; input?: unknown } | { allow: false; reason: string }
>;

/** Finds a call's tool and maps its arguments (`resolveCall`, or the loop's source-aware one). */
export type CallResolver = (call: { name: string; args: unknown }) => ResolvedCall;

/** The capability that leaves plan mode: a deferred tool of it is sent while plan mode is on. */
const PLAN_EXIT = "plan.exit";

/**
 * The declarations to send: every tool not deferred (and, while plan mode is on, the tool that
 * leaves it, as Claude Code sends ExitPlanMode), then the deferred ones loaded so far.
 */
export function advertisedTools(
  h: Harness,
  state: Map<string, unknown>,
  planMode = false,
): ToolDeclaration[] {
  const loaded = loadedNames(state);
  const sent = (t: Harness["tools"][number]) =>
    !t.nested && (!t.deferred ||
      (planMode && t.capability === PLAN_EXIT && !loaded.includes(t.declaration.name)));
  const always = h.tools.filter(sent).map((t) => t.declaration);
  const extra = loaded.flatMap((name) => {
    const tool = h.tools.find((t) => t.deferred && t.declaration.name === name);
    return tool ? [tool.declaration] : [];
  });
  return [...always, ...extra];
}

/**
 * Refuses a call to a deferred tool that is not loaded yet (nor sent while plan mode is on) in
 * the harness's `unloaded_tool_template`, as Claude Code answers one; without the template such
 * a call runs.
 */
export function checkLoaded(
  h: Harness,
  state: Map<string, unknown>,
  name: string,
  planMode = false,
): void {
  if (h.unloadedToolTemplate === undefined) return;
  const tool = h.tools.find((t) => t.declaration.name === name);
  if (!tool?.deferred || loadedNames(state).includes(name)) return;
  if (planMode && tool.capability === PLAN_EXIT) return;
  const search = h.tools.find((t) => t.capability === "tools.search")?.declaration.name ?? "";
  throw new RenderedToolError(
    h.unloadedToolTemplate.replaceAll("{name}", name).replaceAll("{search_tool}", search),
  );
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
 * asks its hook chain, so a call through `tools.call` is approved like a direct one.
 */
export function toolCatalog(
  h: Harness,
  state: Map<string, unknown>,
  opts: { guard: CallGuard; resolve?: CallResolver },
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
    call: (name, args, ctx) =>
      callTool(h, { name, args, ctx, guard: opts.guard, resolve: opts.resolve }),
  };
}

async function callTool(
  h: Harness,
  req: { name: string; args: unknown; ctx: ToolContext; guard: CallGuard; resolve?: CallResolver },
): Promise<string | ImageResult> {
  const tool = h.tools.find((t) => t.declaration.name === req.name);
  if (!tool || tool.capability === "tools.call") {
    const deferred = h.tools.filter((t) => t.deferred).map((t) => t.declaration.name);
    const hint = deferred.length ? `Tools to call this way: ${deferred.join(", ")}` : "";
    throw unknownToolError(h, req.name, deferred, hint);
  }
  const call = { name: req.name, args: req.args };
  const resolved = req.resolve ? req.resolve(call) : resolveCall(h, call);
  const verdict = await req.guard(
    { id: `tool_call:${req.name}`, ...call },
    {
      capability: resolved.capability.id,
      input: resolved.input,
      mutates: resolved.capability.mutates,
    },
  );
  if (!verdict.allow) throw new ToolError(verdict.reason);
  const input = runInput(resolved, verdict.input);
  const output = await resolved.capability.run(
    withGrant(input, verdict.unsandboxed === true),
    req.ctx,
  );
  return isImageResult(output) ? output : renderResult(resolved.tool, output);
}

/** The input the guard allowed: the call's own, or a rewrite, checked like the model's. */
function runInput(resolved: ResolvedCall, rewritten: unknown): unknown {
  if (rewritten === undefined || rewritten === resolved.input) return resolved.input;
  const parsed = resolved.capability.input.safeParse(rewritten);
  if (parsed.success) return parsed.data;
  throw new ToolError(
    `A hook rewrote the input of ${resolved.tool.declaration.name} into one it cannot run with: ` +
      parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "),
  );
}

function loadedNames(state: Map<string, unknown>): string[] {
  const value = state.get(LOADED_TOOLS_KEY);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function entryOf(d: ToolDeclaration): CatalogEntry {
  return { name: d.name, description: d.description, parameters: d.parameters };
}
