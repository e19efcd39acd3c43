/**
 * The schema of hooks (`[hooks]` of config.toml, `hooks.json`): per event, groups of a `matcher`
 * and the commands to run, in the shape Codex and Claude Code share, so one hook file works in
 * all three. `[[hooks.PreToolUse]] matcher = "Bash"` then `[[hooks.PreToolUse.hooks]] type =
 * "command"`, `command`, `timeout` (seconds), `statusMessage`.
 */
import * as z from "zod";

/** The events a hook can run on. */
export const HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "Notification",
  "PreCompact",
  "PostCompact",
  "SubagentStart",
  "SubagentStop",
  "Stop",
] as const;

/** One hook event. */
export type HookEvent = typeof HOOK_EVENTS[number];

/** A hook's timeout when it sets none, in seconds (Codex's). */
export const DEFAULT_HOOK_TIMEOUT_SEC = 600;

/** True for a matcher that matches everything: none, "" or "*". */
export function matchesAll(matcher: string | undefined): boolean {
  return matcher === undefined || matcher === "" || matcher === "*";
}

/** True for a matcher of plain names (`Bash`, `Edit|Write`), which match whole names only. */
export function isNameList(matcher: string): boolean {
  return /^[A-Za-z0-9_|]+$/.test(matcher);
}

/** Why `matcher` cannot be used, if it cannot. */
function matcherProblem(matcher: string): string | undefined {
  if (matchesAll(matcher) || isNameList(matcher)) return undefined;
  try {
    new RegExp(matcher);
    return undefined;
  } catch (error) {
    return `not a regular expression (${(error as Error).message}); use "*" to match every ` +
      'tool, names like "Edit|Write", or a regular expression like "^mcp__github__.*"';
  }
}

const hookCommandSchema = z.strictObject({
  type: z.string().refine((type) => type === "command", {
    message: 'expected "command": a hook runs a command (other hook types are not supported)',
  }),
  command: z.string().regex(/\S/, { error: "expected a command to run" }),
  /** Seconds before the command is killed; default 600. */
  timeout: z.number().positive().max(86_400).optional(),
  /** Shown while the hook runs. */
  statusMessage: z.string().optional(),
});

const matcherGroupSchema = z.strictObject({
  /** A tool name, names joined by `|`, or a regular expression; none, "" or "*" match all. */
  matcher: z.string().superRefine((matcher, ctx) => {
    const problem = matcherProblem(matcher);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }).optional(),
  hooks: z.array(hookCommandSchema),
});

const groups = z.array(matcherGroupSchema);

/** `[hooks]`: the matcher groups of each event. */
export const hooksSchema = z.strictObject({
  SessionStart: groups,
  UserPromptSubmit: groups,
  PreToolUse: groups,
  PermissionRequest: groups,
  PostToolUse: groups,
  Notification: groups,
  PreCompact: groups,
  PostCompact: groups,
  SubagentStart: groups,
  SubagentStop: groups,
  Stop: groups,
}).partial();

/** A `hooks.json` file: `{ "hooks": { "PreToolUse": [...] } }`. */
export const hooksFileSchema = z.strictObject({ hooks: hooksSchema }).partial();

/** The `[hooks]` table. */
export type HooksTable = z.infer<typeof hooksSchema>;
