/**
 * PreToolUse and PostToolUse hooks as a link of the tool-hook chain. Before a call: a hook may
 * block it (exit 2, its stderr the reason the model reads; or `permissionDecision: "deny"`),
 * rewrite its input (`updatedInput`, mapped back from the hook's tool names and checked like the
 * model's own), have the user asked about it whatever the policy (`permissionDecision: "ask"`;
 * denied where no one can answer), or add context. After a call that ran: a hook's `additionalContext`, and the
 * reason of an exit 2 or a `decision: "block"`, follow the result for the model. The link runs
 * before approval, so a rewritten call is the one approval decides on; it never grants anything.
 */
import type { HookTurn, ToolHook } from "../loop/tool_hooks.ts";
import { resolveCall } from "../harness/call.ts";
import { type HookToolView, hookToolView, inputFromHook } from "./tool_names.ts";
import type { UserHooks } from "./user_hooks.ts";

/** The link for one turn, or none when no PreToolUse or PostToolUse hook may run. */
export function userHooksLink(
  hooks: UserHooks,
  turn: HookTurn,
  cwd: string,
): ToolHook | undefined {
  if (!hooks.has("PreToolUse") && !hooks.has("PostToolUse")) return undefined;
  /** PreToolUse context waiting for its call's result. */
  const pending = new Map<string, string[]>();
  return {
    name: "PreToolUse",
    async before(call, signal) {
      // A deferred tool run through tools.call passes this link itself, under its own name.
      if (!hooks.has("PreToolUse") || call.capability === "tools.call") return undefined;
      const view = hookToolView({ wireName: call.name, ...call }, cwd);
      const effects = await hooks.run("PreToolUse", {
        tool_name: view.name,
        tool_input: view.input,
        tool_use_id: call.id,
      }, { names: view.matchNames, signal });
      const contexts = effects.flatMap((e) => e.contexts);
      if (contexts.length) pending.set(call.id, contexts);
      const blocks = effects.flatMap((e) => e.block ? [e.block] : []);
      if (blocks.length) {
        return {
          action: "deny",
          reason: `A PreToolUse hook blocked this call: ${blocks.join("\n")}`,
        };
      }
      const asks = effects.flatMap((e) => e.ask ? [e.ask] : []);
      if (asks.length) {
        return { action: "ask", reason: `A PreToolUse hook asks: ${asks.join("\n")}` };
      }
      const updated = effects.findLast((e) => e.updatedInput)?.updatedInput;
      if (!updated) return undefined;
      return { action: "rewrite", input: inputFromHook(call.capability, updated, call.input) };
    },
    async after(call, result, signal) {
      const notes = pending.get(call.id) ?? [];
      pending.delete(call.id);
      // Only a call that ran has a result to show; a refused or malformed one has none.
      if (hooks.has("PostToolUse") && result.output !== undefined && !signal.aborted) {
        const view = postView(call, turn, cwd);
        const effects = await hooks.run("PostToolUse", {
          tool_name: view.name,
          tool_input: view.input,
          tool_use_id: call.id,
          tool_response: result.output,
        }, { names: view.matchNames, signal }).catch((error) => {
          // Cancelled with the turn: the result stands without the hooks' notes.
          if (signal.aborted) return [];
          throw error;
        });
        for (const effect of effects) {
          notes.push(...effect.contexts);
          if (effect.block) notes.push(`A PostToolUse hook says: ${effect.block}`);
        }
      }
      return notes.length ? { action: "append", text: notes.join("\n\n") } : undefined;
    },
  };
}

/** How hooks see a finished call; a deferred tool run through tools.call, as itself. */
function postView(
  call: { name: string; capability?: string; input?: unknown },
  turn: HookTurn,
  cwd: string,
): HookToolView {
  if (call.capability === "tools.call") {
    const { name, arguments: args } = (call.input ?? {}) as { name?: string; arguments?: unknown };
    if (typeof name === "string") {
      try {
        const parsed = typeof args === "string" ? JSON.parse(args) : args;
        const inner = resolveCall(turn.harness, { name, args: parsed ?? {} });
        return hookToolView(
          { wireName: name, capability: inner.capability.id, input: inner.input },
          cwd,
        );
      } catch {
        return hookToolView({ wireName: name, input: args }, cwd);
      }
    }
  }
  return hookToolView({ wireName: call.name, ...call }, cwd);
}
