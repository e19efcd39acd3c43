/**
 * Whether a rule covers a tool call. Rules name Claude Code's tools; a call is known here by our
 * capability id and input, so the same rule holds for Claude Code's `Bash`, Qwen's
 * `run_shell_command` and Codex's `exec_command` alike: `Bash` is every capability that runs a
 * command line, `Edit` every one that changes files (`apply_patch` once per file it touches),
 * `Read` every one that reads them.
 */
import { isAbsolute, join, normalize, resolve } from "node:path";
// @ts-types="@types/picomatch"
import picomatch from "picomatch";
import { commandOf, fetchUrlOf } from "../../approval/policy.ts";
import { SOURCE_CAPABILITY_PREFIX } from "../../loop/tool_sources.ts";
import { parsePatch } from "../../tools/_patch_parse.ts";
import { bashPatternMatches, commandParts, strippedPart } from "./bash_match.ts";
import { type PermissionRule, RULE_TOOL_CAPABILITIES } from "./rules.ts";

/** One tool call as rules see it. */
export interface RuleCall {
  capability: string;
  input: unknown;
  /** The session's working directory: relative paths (the call's and the rules') start here. */
  cwd: string;
  /** The user's home, for `~/` patterns. */
  userHome?: string;
}

/** The capability a call counts as: `str_replace_editor`'s `view` is a read, not an edit. */
function callKind(call: Pick<RuleCall, "capability" | "input">): string {
  const o = objectOf(call.input);
  return call.capability === "fs.str_replace_editor" && o.command === "view"
    ? "fs.str_replace_editor:view"
    : call.capability;
}

/** True when `rule`'s tool stands for the capability of `call` (its specifier aside). */
export function toolCovers(rule: Pick<PermissionRule, "tool">, capability: string): boolean {
  if (rule.tool === "*") return true;
  if (rule.tool.startsWith("mcp__")) return mcpCovers(rule.tool, capability);
  return (RULE_TOOL_CAPABILITIES[rule.tool] ?? []).includes(capability);
}

/** True when `rule` covers `call`; for `Bash`, when it covers the one command part `part`. */
export function ruleMatches(rule: PermissionRule, call: RuleCall, part?: string): boolean {
  const kind = callKind(call);
  // A path no one may read may not be written either.
  const readDenyCoversEdit = rule.list === "deny" && rule.tool === "Read" &&
    rule.specifier !== undefined && RULE_TOOL_CAPABILITIES.Edit.includes(kind);
  if (!toolCovers(rule, kind) && !readDenyCoversEdit) return false;
  const spec = rule.specifier;
  if (spec === undefined) return true;
  switch (rule.tool) {
    case "Bash":
    case "PowerShell":
      return part !== undefined && bashPatternMatches(spec, part);
    case "Read":
    case "Edit":
      return pathsOf(call, kind).some((path) => pathMatches(rule, path, call));
    case "WebFetch":
      return domainMatches(spec.slice("domain:".length), fetchUrlOf(call.input));
    case "Agent":
    case "Task":
      return wildcard(spec, String(objectOf(call.input).subagent_type ?? "general-purpose"));
    case "Skill":
      return wildcard(spec.replace(/ \*$/, "*"), String(objectOf(call.input).name ?? ""));
    default:
      return false;
  }
}

/** The parts of a command call's line, as rules compare them (see `bash_match.ts`). */
export function bashParts(call: RuleCall, forAllow: boolean): Array<string | undefined> {
  return commandParts(commandOf(call.input).command).map((p) => strippedPart(p, forAllow));
}

/** True when the call runs a command line (its rules match per part). */
export function isCommandCall(call: Pick<RuleCall, "capability">): boolean {
  return RULE_TOOL_CAPABILITIES.Bash.includes(call.capability);
}

/** The absolute files or folders a file call touches. */
function pathsOf(call: RuleCall, kind: string): string[] {
  const o = objectOf(call.input);
  if (kind === "fs.apply_patch" && typeof o.patch === "string") {
    try {
      return parsePatch(o.patch).flatMap((op) => [
        resolve(call.cwd, op.path),
        ...(op.kind === "update" && op.movePath ? [resolve(call.cwd, op.movePath)] : []),
      ]);
    } catch {
      return [];
    }
  }
  const path = typeof o.path === "string"
    ? o.path
    : typeof o.file_path === "string"
    ? o.file_path
    : call.cwd;
  return [resolve(call.cwd, path)];
}

/**
 * Whether `path` (absolute) falls under the rule's gitignore-style pattern: `//x` is absolute,
 * `~/x` under the user's home, `/x` under the rule's root, `x` and `./x` under the working
 * directory. A pattern also covers what lies inside a folder it names; in a deny or ask rule, a
 * bare relative pattern (`src/**`, `.env`) matches at any depth below the working directory.
 */
function pathMatches(rule: PermissionRule, path: string, call: RuleCall): boolean {
  const base = patternBase(rule, call);
  if (base === undefined) return false;
  const candidates = [base.pattern];
  if (rule.list !== "allow" && base.relative) candidates.push(join(call.cwd, "**", base.rest));
  const target = normalize(path);
  return candidates.some((pattern) => {
    const clean = pattern.replace(/\/+$/, "");
    const opts = { dot: true, posix: true, windows: false } as const;
    return picomatch.isMatch(target, clean, opts) || picomatch.isMatch(target, `${clean}/**`, opts);
  });
}

/** Where a rule's path pattern points, absolute. */
function patternBase(
  rule: PermissionRule,
  call: RuleCall,
): { pattern: string; relative: boolean; rest: string } | undefined {
  const spec = rule.specifier ?? "";
  if (spec.startsWith("//")) return { pattern: spec.slice(1), relative: false, rest: spec };
  if (spec.startsWith("~/")) {
    if (call.userHome === undefined) return undefined;
    return { pattern: join(call.userHome, spec.slice(2)), relative: false, rest: spec };
  }
  if (spec.startsWith("/")) return { pattern: join(rule.root, spec), relative: false, rest: spec };
  if (isAbsolute(spec)) return undefined;
  const anchored = spec.startsWith("./");
  const rest = anchored ? spec.slice(2) : spec;
  return { pattern: join(call.cwd, rest), relative: !anchored, rest };
}

/** `domain:x` against a URL's host: `x` exactly, `*.x` its subdomains, `*` any host. */
function domainMatches(domain: string, url: string): boolean {
  if (!URL.canParse(url)) return false;
  const host = new URL(url).hostname.toLowerCase();
  const want = domain.toLowerCase();
  if (want === "*") return true;
  if (want.startsWith("*.")) return host.endsWith(want.slice(1));
  return host === want;
}

/** `mcp__server`, `mcp__server__*` and `mcp__server__tool` against `source:server/tool`. */
function mcpCovers(ruleTool: string, capability: string): boolean {
  if (!capability.startsWith(SOURCE_CAPABILITY_PREFIX)) return false;
  const [server, ...rest] = capability.slice(SOURCE_CAPABILITY_PREFIX.length).split("/");
  const tool = rest.join("/");
  const named = ruleTool.slice("mcp__".length);
  if (named === "*") return true;
  const split = named.indexOf("__");
  if (split < 0) return named === server;
  if (named.slice(0, split) !== server) return false;
  return wildcard(named.slice(split + 2), tool);
}

/** `*` in `pattern` spans anything; all else is literal. */
function wildcard(pattern: string, text: string): boolean {
  const source = pattern.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${source}$`, "s").test(text);
}

function objectOf(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null ? input as Record<string, unknown> : {};
}
