/**
 * What the rules say of one call, in Claude Code's order: any matching deny rule refuses it, then
 * any matching ask rule asks, then allow rules let it skip the approval question; the first list
 * with a match decides, however specific the rules. A command line is judged part by part: one
 * part that a deny (or ask) rule matches is enough, while allow needs every part matched.
 */
import { bashParts, isCommandCall, type RuleCall, ruleMatches } from "./match.ts";
import type { PermissionRule, RuleList } from "./rules.ts";

/** The deciding list and the rule that decided. */
export interface RuleVerdict {
  list: RuleList;
  rule: PermissionRule;
}

/** The verdict of `rules` on `call`, or undefined when no rule speaks to it. */
export function ruleVerdict(
  rules: readonly PermissionRule[],
  call: RuleCall,
): RuleVerdict | undefined {
  for (const list of ["deny", "ask"] as const) {
    const rule = rules.find((r) => r.list === list && matchesAnyPart(r, call));
    if (rule) return { list, rule };
  }
  const allow = rules.filter((r) => r.list === "allow");
  if (allow.length === 0) return undefined;
  if (!isCommandCall(call)) {
    const rule = allow.find((r) => ruleMatches(r, call));
    return rule ? { list: "allow", rule } : undefined;
  }
  const parts = bashParts(call, true);
  if (parts.length === 0 || parts.some((p) => p === undefined)) return undefined;
  let first: PermissionRule | undefined;
  for (const part of parts) {
    const rule = allow.find((r) => ruleMatches(r, call, part));
    if (!rule) return undefined;
    first ??= rule;
  }
  return first ? { list: "allow", rule: first } : undefined;
}

/** A deny or ask rule matches the call, or (a command) any one part of its line. */
function matchesAnyPart(rule: PermissionRule, call: RuleCall): boolean {
  if (!isCommandCall(call) || rule.specifier === undefined) return ruleMatches(rule, call);
  return bashParts(call, false).some((part) => ruleMatches(rule, call, part));
}

/**
 * The capabilities a bare deny rule (`Bash`, `WebFetch`, `*`) takes away from the model's tool
 * list: a test the session's tool filter calls per capability.
 */
export function deniedOutright(
  rules: readonly PermissionRule[],
  covers: (rule: PermissionRule, capability: string) => boolean,
): (capability: string) => boolean {
  const bare = rules.filter((r) => r.list === "deny" && r.specifier === undefined);
  return (capability) => bare.some((r) => covers(r, capability));
}
