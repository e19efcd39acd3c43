/**
 * A custom command's shell pre-execution, run as the model's commands run: as a call of the
 * harness's shell tool through the session's hook chain (approval policy, the user's hooks,
 * permission rules) and in its sandbox. Its events reach the front end like a tool call's.
 */
import { dispatchToolCall } from "../loop/dispatch.ts";
import { ToolHookChain } from "../loop/tool_hooks.ts";
import { capabilityById } from "../tools/registry.ts";
import type { ShellRunOutput } from "../tools/shell_run.ts";
import type { ShellRun } from "../setups/commands/expand.ts";
import { toolHooksOf, turnContextOf, type TurnSetup } from "./turn_context.ts";

/**
 * Runs `command` as a call of the harness's shell tool; a refusal comes back as `refused`.
 * `allowed` (the custom command's `allowed-tools`) approves matching calls, as for its turn.
 */
export async function runCommandAsTool(
  setup: TurnSetup,
  command: string,
  opts: { signal: AbortSignal; allowed?: readonly string[] },
): Promise<ShellRun> {
  const { signal, allowed } = opts;
  const t: TurnSetup = allowed?.length ? { ...setup, turnAllow: () => allowed } : setup;
  const harness = t.parts.state.harness;
  const tool = harness.tools.find((x) => x.capability === "shell.run" && !x.nested);
  const capability = capabilityById("shell.run");
  if (!tool || !capability) {
    return { output: "", exitCode: null, refused: `the ${harness.id} harness runs no commands` };
  }
  const toolHooks = toolHooksOf(t);
  const ctx = turnContextOf(t, signal, toolHooks);
  const hooks = new ToolHookChain(
    toolHooks({ harness, state: ctx.state, tokensUsed: ctx.tokensUsed }),
  );
  const input = capability.input.parse({ command });
  const call = { id: `command_${crypto.randomUUID().slice(0, 8)}`, name: tool.declaration.name };
  const result = await dispatchToolCall({ ...call, args: { command } }, {
    harness,
    ctx,
    emit: (event) => t.parts.io.onEvent(event),
    hooks,
    resolve: () => ({ tool, capability, input }),
  });
  const output = result.output as ShellRunOutput | undefined;
  if (output === undefined) return { output: "", exitCode: null, refused: result.text };
  return { output: output.output, exitCode: output.exitCode };
}
