import { SandboxRefusal, type SpawnSpec } from "../../sandbox/command_sandbox.ts";
import type { PreparedProcess } from "../../sandbox/warm_sandbox.ts";
import { ToolError } from "../errors.ts";
import type { ToolContext } from "./capability.ts";
import { resolvePath } from "./_paths.ts";
import { fsOf } from "./_fs.ts";

/**
 * What to spawn for `argv`: the session sandbox's wrapper when there is one, else the command
 * itself. A sandbox refusal becomes a ToolError, so the model learns why and what to do.
 */
export async function sandboxedSpawn(
  argv: string[],
  opts: { cwd: string; env: Record<string, string>; escalated?: boolean },
  ctx: ToolContext,
): Promise<SpawnSpec> {
  if (!ctx.sandbox) return { cmd: argv[0], args: argv.slice(1), env: opts.env };
  try {
    return await ctx.sandbox.wrap({ argv, ...opts, escalated: opts.escalated ?? false });
  } catch (err) {
    if (err instanceof SandboxRefusal) throw new ToolError(err.message, err.hint);
    throw err;
  }
}

/**
 * `argv` started at once in a sandbox the session prepared for the next command, or undefined
 * when it has none for it (then spawn what `sandboxedSpawn()` returns). Escalated runs never are.
 */
export async function preparedProcess(
  argv: string[],
  opts: { cwd: string; env: Record<string, string>; escalated?: boolean },
  ctx: ToolContext,
): Promise<PreparedProcess | undefined> {
  if (!ctx.sandbox?.spawn || opts.escalated) return undefined;
  return await ctx.sandbox.spawn({ argv, cwd: opts.cwd, env: opts.env });
}

/**
 * The absolute working directory for a command: `given` (default ".") against `ctx.cwd`.
 * A missing path or a file is a ToolError that names what the model gave.
 */
export async function commandCwd(ctx: ToolContext, given = "."): Promise<string> {
  const abs = resolvePath(ctx.cwd, given);
  const isDir = await fsOf(ctx).stat(abs).then((s) => s.isDirectory, () => undefined);
  if (isDir) return abs;
  throw new ToolError(
    `Cannot run command: working directory "${given}" ${
      isDir === undefined ? "does not exist" : "is not a directory"
    }`,
    "Use an existing directory, relative to the workspace or absolute",
  );
}
