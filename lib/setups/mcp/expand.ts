/**
 * The variables in a mapped MCP server entry (`map.ts`) filled in at start, each vendor's way:
 * Claude Code `${VAR}` and `${VAR:-default}` (an unset one stays as written); Gemini CLI and
 * Qwen Code `$VAR`, `${VAR}`, `${VAR:-default}` (unset: empty); opencode `{env:VAR}` (unset:
 * empty); Cursor `${env:VAR}`, `${userHome}`, `${workspaceFolder}`. Every unset variable is
 * named, for one warning. Pure.
 */
import type { McpServerEntry } from "../../config/schema.ts";
import type { SetupVendor } from "../sources.ts";

/** What the variables are filled from. */
export interface ExpandContext {
  env: Record<string, string | undefined>;
  projectRoot: string;
  userHome?: string;
}

/** `entry` with its command, args, env, cwd, url and headers expanded; and the unset names. */
export function expandEntry(
  entry: McpServerEntry,
  vendor: SetupVendor,
  ctx: ExpandContext,
): { entry: McpServerEntry; unset: string[] } {
  const unset = new Set<string>();
  const one = (text: string) => expandText(text, vendor, ctx, unset);
  const map = (m?: Record<string, string>) =>
    m && Object.fromEntries(Object.entries(m).map(([k, v]) => [k, one(v)]));
  const out: McpServerEntry = { ...entry };
  if (entry.command !== undefined) out.command = one(entry.command);
  if (entry.args) out.args = entry.args.map(one);
  if (entry.env) out.env = map(entry.env);
  if (entry.cwd !== undefined) out.cwd = one(entry.cwd);
  if (entry.url !== undefined) out.url = one(entry.url);
  if (entry.http_headers) out.http_headers = map(entry.http_headers);
  return { entry: out, unset: [...unset] };
}

/** `text` with `vendor`'s variables filled in; unset names go to `unset`. */
export function expandText(
  text: string,
  vendor: SetupVendor,
  ctx: ExpandContext,
  unset: Set<string>,
): string {
  const lookup = (name: string, fallback: string | undefined, keep: string) => {
    const value = ctx.env[name];
    if (value !== undefined && (value !== "" || fallback === undefined)) return value;
    if (fallback !== undefined) return fallback;
    unset.add(name);
    return keep;
  };
  switch (vendor) {
    case "claude":
      return text.replace(
        /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
        (all, name, fallback) => lookup(name, fallback, all),
      );
    case "gemini":
    case "qwen":
      return text.replace(
        /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
        (_all, braced, fallback, bare) => lookup(braced ?? bare, fallback, ""),
      );
    case "opencode":
      return text.replace(/\{env:([^}]+)\}/g, (_all, name) => lookup(name, undefined, ""));
    case "cursor":
      return text.replace(/\$\{(env:([^}]+)|userHome|workspaceFolder)\}/g, (all, what, name) => {
        if (name !== undefined) return lookup(name, undefined, "");
        if (what === "workspaceFolder") return ctx.projectRoot;
        if (ctx.userHome !== undefined) return ctx.userHome;
        unset.add("HOME");
        return all;
      });
    default:
      return text;
  }
}
