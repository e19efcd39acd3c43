/**
 * What a `codex` call's arguments mean for its session: the server's own settings (its flags)
 * with the call's model, profile, working directory, sandbox, approval policy and config values
 * over them, and the first prompt with the developer instructions.
 */
import { resolve } from "node:path";
import { type ConfigOverride, parseOverrideText } from "../../config/mod.ts";
import { ConfigError, UserError } from "../../errors.ts";
import type { Block } from "../../model/message.ts";
import type { SessionConfig } from "../../session/open.ts";
import type { CodexArgs } from "./codex_tools.ts";

/** The session a `codex` call runs in; a `UserError` when its directory or config is unusable. */
export async function codexSessionConfig(
  base: SessionConfig,
  args: CodexArgs,
): Promise<SessionConfig> {
  const config: SessionConfig = { ...base, origin: "exec" };
  if (args.cwd) config.cwd = resolve(base.cwd, args.cwd);
  if (args.model) config.model = args.model;
  if (args.profile) config.profile = args.profile;
  if (args.sandbox) config.sandbox = args.sandbox;
  if (args["approval-policy"]) config.approval = args["approval-policy"];
  const overrides = Object.entries(args.config ?? {}).map(([key, value]) => overrideOf(key, value));
  if (overrides.length > 0) config.overrides = [...(base.overrides ?? []), ...overrides];
  const baseInstructions = args["base-instructions"];
  if (baseInstructions) config.instructions = () => baseInstructions;
  await checkDirectory(config.cwd);
  return config;
}

/** The first prompt: the developer instructions, when given, as context before the task. */
export function firstPrompt(args: Pick<CodexArgs, "prompt" | "developer-instructions">): Block[] {
  const developer = args["developer-instructions"];
  return [
    ...(developer ? [{ type: "text" as const, text: developer, context: true }] : []),
    { type: "text", text: args.prompt },
  ];
}

/** One key of the `config` argument as a config override: a dotted key path and a JSON value. */
export function overrideOf(key: string, value: unknown): ConfigOverride {
  let keyPath: string[];
  try {
    // The value is set below; `0` only lets the key path be read by the `-c` parser.
    keyPath = parseOverrideText(`${key}=0`).keyPath;
  } catch {
    throw new ConfigError(`Cannot use "${key}" of the "config" argument: it is not a key path`, {
      hint: 'Name config values by dotted key path, as in "sandbox_workspace_write.network_access"',
    });
  }
  const where = `"config" argument "${key}"`;
  return { keyPath, value, origin: `codex tool ${where}`, where };
}

async function checkDirectory(dir: string): Promise<void> {
  const info = await Deno.stat(dir).catch(() => undefined);
  if (info?.isDirectory) return;
  throw new UserError(`Cannot use "${dir}" as the working directory: it is not a directory`, {
    hint: 'Pass "cwd" an existing directory, absolute or relative to the server\'s',
  });
}
