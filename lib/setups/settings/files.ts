/**
 * The settings files of other agents that hold hooks, `env` and status lines (issue 33 §5):
 * Claude Code's `.claude/settings.json` and `.claude/settings.local.json`, Gemini CLI's and Qwen
 * Code's `.gemini/settings.json` and `.qwen/settings.json`, the user's (`~/.claude/...`) first,
 * then the project's from the working directory up to the root (`locationsOf("settings")`). A
 * file that cannot be read or parsed is one warning naming it and the fix; the others still count.
 */
import { ConfigError } from "../../errors.ts";
import { locationsOf } from "../locations.ts";
import {
  parseSetupJson,
  readSetupFile,
  type SetupContext,
  type SetupVendor,
  setupWarning,
} from "../sources.ts";

/** One settings file read: its path, whose format, whose it is, and its top-level object. */
export interface SettingsFile {
  path: string;
  vendor: SetupVendor;
  scope: "user" | "project";
  data: Record<string, unknown>;
}

/** The settings files that exist, user's first, and a warning for each bad one. */
export async function readSettingsFiles(
  ctx: SetupContext,
): Promise<{ files: SettingsFile[]; warnings: string[] }> {
  const files: SettingsFile[] = [];
  const warnings: string[] = [];
  for (const location of locationsOf("settings", ctx)) {
    try {
      const text = await readSetupFile(location.absolute, ctx, location.scope);
      if (text === undefined) continue;
      const data = parseSetupJson(text, location.absolute);
      if (typeof data !== "object" || data === null || Array.isArray(data)) {
        throw new ConfigError(`${location.absolute} is not a JSON object`, {
          hint: 'Write it as { "hooks": { ... } }, or remove it',
        });
      }
      const { vendor, scope } = location;
      files.push({ path: location.absolute, vendor, scope, data: data as Record<string, unknown> });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      warnings.push(setupWarning(error));
    }
  }
  return { files, warnings };
}

/** A plain object's entries, or none for anything else. */
export function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}
