/**
 * A session's permission rules at work (issue 33 §4): the rules found at start plus those
 * `/permissions allow|ask|deny` adds, put before the session's approval check. Deny refuses a
 * call with its rule and file named, ask asks whatever the approval policy says (and is refused
 * where no one can answer), allow lets a call skip the policy's question but never leave the
 * sandbox. A command's `allowed-tools` act as allow rules for the turn that runs it.
 */
import { join } from "node:path";
import type { HookVerdict } from "../../approval/hook.ts";
import type { ApprovalCheck } from "../../approval/hook.ts";
import { SOURCE_CAPABILITY_PREFIX } from "../../loop/tool_sources.ts";
import type { ToolSource } from "../../tools/tool_source.ts";
import { allowRuleKey } from "./load.ts";
import { toolCovers } from "./match.ts";
import { parseRule, type PermissionRule } from "./rules.ts";
import { deniedOutright, ruleVerdict } from "./verdict.ts";

/** What the rules of a turn are checked with besides the call. */
export interface GateTurn {
  /** The session's working directory now. */
  cwd: () => string;
  /** Rules (Claude Code syntax) allowed for this turn only: a command's `allowed-tools`. */
  turnAllow?: readonly string[];
  /** Told about each call a rule refused. */
  onDenied?: (reason: string, callId: string | undefined) => void;
}

/** The rules of a session and what they do to its tool calls. */
export interface PermissionGate {
  /** The rules in force, deny first, each with its file. */
  rules(): readonly PermissionRule[];
  /** A project's allow rules that wait for `interpreter trust`. */
  readonly untrusted: readonly PermissionRule[];
  /**
   * Takes in the project's allow rules trusted by now (the REPL asks at start, after the rules
   * were read; `all` trusts every one) and returns those still waiting.
   */
  settleTrust(trusted: ReadonlySet<string> | "all"): Promise<readonly PermissionRule[]>;
  /** Adds one rule to the running session. */
  add(rule: PermissionRule): void;
  /** True for a capability a bare deny rule (`Bash`, `WebFetch`) takes off the model's list. */
  hidden(capability: string): boolean;
  /** `sources` without the tools a bare deny rule (`mcp__server`, `mcp__server__tool`) names. */
  visibleSources(sources: readonly ToolSource[]): ToolSource[];
  /** The existing files and folders `Read` deny rules name, to hide from commands. */
  maskedPaths(cwd: string): Promise<Array<{ path: string; folder: boolean }>>;
  /** `check` with the rules applied before it. */
  wrap(check: ApprovalCheck, turn: GateTurn): ApprovalCheck;
}

/** A gate over `rules` (found at start), with `userHome` for `~/` patterns. */
export function permissionGate(
  found: { rules: PermissionRule[]; untrusted: PermissionRule[] },
  opts: { userHome?: string },
): PermissionGate {
  const rules = [...found.rules];
  let untrusted = [...found.untrusted];
  return {
    rules: () => [...rules].sort((a, b) => order(a) - order(b)),
    get untrusted() {
      return untrusted;
    },
    async settleTrust(trusted) {
      const keys = await Promise.all(untrusted.map((rule) => allowRuleKey(rule)));
      const now = untrusted.filter((_, i) => trusted === "all" || trusted.has(keys[i]));
      rules.push(...now);
      untrusted = untrusted.filter((rule) => !now.includes(rule));
      return untrusted;
    },
    add: (rule) => void rules.push(rule),
    hidden: (capability) => deniedOutright(rules, toolCovers)(capability),
    maskedPaths: (cwd) => maskedPaths(rules, cwd),
    visibleSources: (sources) =>
      sources.map((source) => ({
        id: source.id,
        async tools(signal) {
          const hidden = deniedOutright(rules, toolCovers);
          return (await source.tools(signal)).filter((tool) =>
            !hidden(`${SOURCE_CAPABILITY_PREFIX}${source.id}/${tool.name}`)
          );
        },
      })),
    wrap: (check, turn) => gated(check, rules, turn, opts.userHome),
  };
}

function order(rule: PermissionRule): number {
  return ["deny", "ask", "allow"].indexOf(rule.list);
}

function gated(
  check: ApprovalCheck,
  rules: readonly PermissionRule[],
  turn: GateTurn,
  userHome: string | undefined,
): ApprovalCheck {
  const turnRules = (turn.turnAllow ?? []).flatMap((text) => {
    try {
      return [parseRule(text, { list: "allow", source: "allowed-tools", scope: "turn", root: "" })];
    } catch {
      return [];
    }
  });
  return (call, resolved, signal) => {
    const all = turnRules.length ? [...rules, ...turnRules] : rules;
    const verdict = ruleVerdict(all, { ...resolved, cwd: turn.cwd(), userHome });
    if (verdict?.list === "deny") {
      const { rule } = verdict;
      const reason = `Permission to use ${call.name} was denied by the rule "${rule.text}" in ` +
        `${rule.source}\nDo not retry it; tell the user what you wanted to do and why`;
      turn.onDenied?.(reason, call.id);
      return Promise.resolve<HookVerdict>({ allow: false, reason });
    }
    if (verdict?.list === "ask") {
      const askReason = `the rule "${verdict.rule.text}" in ${verdict.rule.source} asks first`;
      return check(call, { ...resolved, askReason }, signal);
    }
    if (verdict?.list === "allow") {
      return check(call, { ...resolved, allowedBy: verdict.rule.text }, signal);
    }
    return check(call, resolved, signal);
  };
}

/**
 * The paths of `Read` deny rules that name one file or folder (no wildcard but a trailing
 * `/**`), resolved as the rules resolve them, that exist now, by their real paths.
 */
async function maskedPaths(
  rules: readonly PermissionRule[],
  cwd: string,
): Promise<Array<{ path: string; folder: boolean }>> {
  const out = new Map<string, boolean>();
  for (const rule of rules) {
    if (rule.list !== "deny" || rule.tool !== "Read") continue;
    const spec = (rule.specifier ?? "").replace(/\/\*\*(\/\*)?$/, "").replace(/\/+$/, "");
    if (spec === "" || /[*?[\]{}]/.test(spec) || spec.startsWith("~")) continue;
    const path = spec.startsWith("//")
      ? spec.slice(1)
      : spec.startsWith("/")
      ? `${rule.root}${spec}`
      : join(cwd, spec);
    try {
      const real = await Deno.realPath(path);
      out.set(real, (await Deno.stat(real)).isDirectory);
    } catch {
      // Only what exists can be masked; the rule still refuses the file tools.
    }
  }
  return [...out].map(([path, folder]) => ({ path, folder }));
}
