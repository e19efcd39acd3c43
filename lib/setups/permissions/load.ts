/**
 * Where permission rules come from, read once at session start: our `[permission_rules]` in the
 * user's `config.toml` and a trusted project's `.openinterpreter/config.toml` (and `-c` or a
 * profile), Claude Code's `permissions` in the project's `.claude/settings.json` and
 * `.claude/settings.local.json`, and `~/.claude/settings.json` when `import_user_setups` names
 * "permissions". Each file's lists join the others (a project cannot empty the user's deny list).
 * Deny and ask rules apply at once, whatever the project's trust; a project's allow rule only
 * once the user trusted that exact rule (`interpreter trust`).
 */
import { join } from "node:path";
import { ConfigError } from "../../errors.ts";
import { configLayerOf, readConfigText } from "../../config/mcp_servers_file.ts";
import { describeOrigin } from "../../config/origin.ts";
import type { EffectiveConfig } from "../../config/mod.ts";
import { definitionDigest } from "../../config/project_definitions.ts";
import { locationsOf } from "../locations.ts";
import {
  parseSetupJson,
  readSetupFile,
  type SetupContext,
  setupWarning,
  userVendorDir,
} from "../sources.ts";
import { parseRuleLists, type PermissionRule, RULE_LISTS } from "./rules.ts";

/** Every rule found, the warnings about bad ones, and the project allow rules not yet trusted. */
export interface FoundRules {
  rules: PermissionRule[];
  warnings: string[];
  /** Project allow rules left out until the user trusts them. */
  untrusted: PermissionRule[];
}

/** The digest under which the user's trust in a project's allow rule is kept. */
export function allowRuleKey(rule: Pick<PermissionRule, "text">): Promise<string> {
  return definitionDigest(["allow_rule", rule.text]);
}

/**
 * The project's rules in Claude Code's files and its `.openinterpreter/config.toml` (read
 * whatever the project's trust: deny and ask need none). Bad files are warnings.
 */
export async function projectRules(
  ctx: SetupContext,
): Promise<{ rules: PermissionRule[]; warnings: string[] }> {
  const out = { rules: [] as PermissionRule[], warnings: [] as string[] };
  const seeAll = { ...ctx, projectTrusted: true };
  const files = locationsOf("settings", seeAll).filter((l) =>
    l.vendor === "claude" && l.scope === "project"
  );
  for (const location of files) {
    await addClaudeFile(out, location.absolute, ctx, {
      scope: "project",
      root: location.folder ?? ctx.projectRoot,
    });
  }
  if (ctx.projectTrusted) {
    const file = join(ctx.projectRoot, ".openinterpreter", "config.toml");
    if (!ctx.isHeldBack?.(file)) await addOurFile(out, file, "project", ctx.projectRoot);
  }
  return out;
}

/** Every rule of the session `config` was loaded for (see the module comment). */
export async function loadRules(
  config: Pick<EffectiveConfig, "home" | "projectRoot" | "origin" | "values">,
  ctx: SetupContext,
  trusted: ReadonlySet<string>,
): Promise<FoundRules> {
  const out = { rules: [] as PermissionRule[], warnings: [] as string[] };
  const userFile = join(config.home, "config.toml");
  await addOurFile(out, userFile, "user", config.projectRoot);
  addEffective(out, config);
  if (ctx.userHome !== undefined && ctx.importUser.has("permissions")) {
    const dir = userVendorDir(ctx.userHome, "claude");
    await addClaudeFile(out, join(dir, "settings.json"), ctx, { scope: "user", root: dir });
  }
  const project = await projectRules(ctx);
  out.warnings.push(...project.warnings);
  const untrusted: PermissionRule[] = [];
  for (const rule of project.rules) {
    const waits = rule.list === "allow" &&
      !(ctx.projectTrusted && trusted.has(await allowRuleKey(rule)));
    (waits ? untrusted : out.rules).push(rule);
  }
  return { rules: dedupe(out.rules), warnings: out.warnings, untrusted };
}

/** Claude Code's `permissions` object of settings file `path`. */
async function addClaudeFile(
  out: { rules: PermissionRule[]; warnings: string[] },
  path: string,
  ctx: SetupContext,
  where: { scope: "user" | "project"; root: string },
): Promise<void> {
  // A file changed during an earlier session is held back, but its deny and ask rules only
  // narrow what runs: they still apply (its allow rules do not).
  const heldBack = where.scope === "project" && ctx.isHeldBack?.(path) === true;
  try {
    const text = await readSetupFile(path, { ...ctx, isHeldBack: undefined }, where.scope);
    if (text === undefined) return;
    const settings = parseSetupJson(text, path);
    const lists = typeof settings === "object" && settings !== null
      ? (settings as Record<string, unknown>).permissions
      : undefined;
    const found = parseRuleLists(lists, { ...where, source: path, keyPrefix: "permissions" });
    out.rules.push(...found.rules.filter((rule) => !heldBack || rule.list !== "allow"));
    out.warnings.push(...found.warnings);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    out.warnings.push(setupWarning(error));
  }
}

/** `[permission_rules]` of our config file `file`. */
async function addOurFile(
  out: { rules: PermissionRule[]; warnings: string[] },
  file: string,
  scope: "user" | "project",
  root: string,
): Promise<void> {
  try {
    const text = await readConfigText(file);
    if (text === "") return;
    const lists = configLayerOf(text, file).permission_rules;
    const found = parseRuleLists(lists, {
      source: file,
      scope,
      root,
      keyPrefix: "permission_rules",
    });
    out.rules.push(...found.rules);
    out.warnings.push(...found.warnings);
  } catch (error) {
    // A bad config file already stopped the session at load; here it only loses its rules.
    if (!(error instanceof ConfigError)) throw error;
  }
}

/** Rules that `-c` or a profile set, which no file above holds. */
function addEffective(
  out: { rules: PermissionRule[]; warnings: string[] },
  config: Pick<EffectiveConfig, "projectRoot" | "origin" | "values">,
): void {
  for (const list of RULE_LISTS) {
    const origin = config.origin(`permission_rules.${list}`);
    if (!origin || origin.kind === "user" || origin.kind === "project") continue;
    const found = parseRuleLists({ [list]: config.values.permission_rules?.[list] }, {
      source: describeOrigin(origin),
      scope: "user",
      root: config.projectRoot,
      keyPrefix: "permission_rules",
    });
    out.rules.push(...found.rules);
    out.warnings.push(...found.warnings);
  }
}

function dedupe(rules: PermissionRule[]): PermissionRule[] {
  const seen = new Set<string>();
  return rules.filter((r) => {
    const key = `${r.list}\u0000${r.text}\u0000${r.source}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
