/**
 * Code mode's way out of its sandbox: the `exec` source calls the harness's other tools (the
 * nested ones, `HarnessTool.nested`) through `ToolContext.nestedTools`, and each such call is
 * dispatched exactly as a direct call is: the same hook chain, so the same approvals, events and
 * results. Also the blocks of a result given in several parts.
 */
import { nestedValue } from "../harness/code_mode.ts";
import type { Block } from "../model/message.ts";
import type { NestedTools } from "../tools/types.ts";
import type { ImageData } from "../tools/tool_source.ts";
import { type DispatchDeps, type DispatchOutcome, dispatchToolCall } from "./dispatch.ts";
import { contextWith } from "./live_context.ts";

/** `turn` with `ctx.nestedTools` set when its harness has nested tools (code mode). */
export function withNestedTools<T extends DispatchDeps>(turn: T): T {
  const names = turn.harness.tools.filter((t) => t.nested).map((t) => t.declaration.name);
  if (names.length === 0) return turn;
  let count = 0;
  const pendingImages: ImageData[] = [];
  const nestedTools: NestedTools = {
    names: () => [...names],
    async call(name, args, meta) {
      if (!names.includes(name)) {
        return { value: `tool \`${name}\` is not enabled in exec`, isError: true };
      }
      const call = { id: `${meta.callId}:${++count}`, name, args };
      const deps = { ...turn, ctx: contextWith(turn.ctx, { signal: meta.signal }), nested: true };
      const result = await dispatchToolCall(call, deps);
      // A nested call's picture (view_image) goes to the model with the cell's next result.
      if (result.images?.length) pendingImages.push(...result.images);
      const value = result.isError ? result.text : nestedValue(turn.harness, name, result);
      return { value, isError: result.isError };
    },
  };
  return { ...turn, pendingImages, ctx: contextWith(turn.ctx, { nestedTools }) };
}

/** The blocks of a result after its first text: its further parts, then its images. */
export function laterParts(result: DispatchOutcome): Block[] {
  const texts = (result.parts ?? []).slice(1).map((text): Block => ({ type: "text", text }));
  const images = (result.images ?? []).map((i): Block => ({ type: "image", ...i }));
  return [...texts, ...images];
}
