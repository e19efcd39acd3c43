/**
 * `/permissions`: the sandbox mode, approval policy and network access in use, and the
 * permission rules with their files; `/permissions MODE`, `/permissions POLICY` (or both) change
 * them in place, as Codex's `/permissions` does. A narrower mode first stops what runs in the
 * background under the wider one, after a yes. `/permissions allow|ask|deny RULE [--project]`
 * adds a rule to the user's config.toml (or the project's) and to the session at once.
 */
import { terminalSafe, terminalText } from "../../approval/visible.ts";
import { APPROVAL_POLICIES, SANDBOX_MODES } from "../../config/schema.ts";
import { UsageError } from "../../errors.ts";
import type {
  ApprovalPolicy,
  SandboxMode,
  Session,
  SettingsUpdate,
  StopRunning,
} from "../../session/types.ts";
import type { Style } from "../term/style.ts";

/** What `/permissions` reaches of the REPL (a part of the commands' context). */
export interface PermissionsContext {
  session(): Session;
  print(lines: string[]): void;
  /** Reads one answer line; null at end of input. */
  ask(prompt: string): Promise<string | null>;
  style: Style;
}

/** The `/permissions` slash command. */
export const PERMISSIONS_COMMAND = {
  name: "permissions",
  summary: "sandbox, approval and rules; /permissions MODE|POLICY, or allow|ask|deny RULE",
  run: permissions,
};

async function permissions(arg: string, ctx: PermissionsContext): Promise<void> {
  const words = arg.trim().split(/\s+/).filter(Boolean);
  if ((RULE_LISTS as readonly string[]).includes(words[0])) return await addRule(arg, ctx);
  if (words.length > 0) {
    await ctx.session().configure(updateOf(words), { stopRunning: askStop(ctx) });
  }
  const s = terminalSafe(ctx.session().status());
  ctx.print([
    `sandbox: ${s.sandboxMode} (${s.sandbox})`,
    `approval: ${s.approval}`,
    `network: ${s.network ? "allowed" : "blocked"}`,
    ...(words.length ? [] : [
      ...ruleLines(ctx.session(), ctx.style),
      ctx.style.dim(`/permissions MODE or POLICY changes them: ${choices()}`),
      ctx.style.dim("/permissions allow|ask|deny RULE [--project] adds a rule"),
    ]),
  ]);
}

const RULE_LISTS = ["deny", "ask", "allow"] as const;

/** The rules in force, deny first, each with its file. */
function ruleLines(session: Session, style: Style): string[] {
  const rules = session.permissionRules?.() ?? [];
  if (rules.length === 0) return [style.dim("rules: none")];
  return [
    "rules:",
    ...rules.map((r) =>
      `  ${r.list.padEnd(5)} ${terminalText(r.text)}  ${style.dim(terminalText(r.source))}`
    ),
  ];
}

/** `/permissions allow|ask|deny RULE [--project]`. */
async function addRule(arg: string, ctx: PermissionsContext): Promise<void> {
  const m = /^(allow|ask|deny)\s+(.*?)(\s+--project)?\s*$/s.exec(arg.trim());
  const session = ctx.session();
  if (!m || !session.addPermissionRule) {
    throw new UsageError("Give a rule after allow, ask or deny", {
      hint:
        'For example: /permissions deny Bash(rm:*)  or  /permissions allow "Bash(npm test)" --project',
    });
  }
  const [, list, written, project] = m;
  const rule = written.replace(/^(["'])(.*)\1$/s, "$2");
  const done = await session.addPermissionRule(list as typeof RULE_LISTS[number], rule, {
    project: project !== undefined,
  });
  const what = `${list} rule "${terminalText(rule)}"`;
  ctx.print([
    done.added
      ? `Added the ${what} to ${terminalText(done.file)}; it applies now`
      : `The ${what} is in ${terminalText(done.file)} already`,
  ]);
}

/** The change `words` (a sandbox mode, an approval policy, or one of each) ask for. */
function updateOf(words: string[]): SettingsUpdate {
  const update: SettingsUpdate = {};
  for (const word of words) {
    if ((SANDBOX_MODES as readonly string[]).includes(word) && !update.sandboxMode) {
      update.sandboxMode = word as SandboxMode;
    } else if ((APPROVAL_POLICIES as readonly string[]).includes(word) && !update.approvalPolicy) {
      update.approvalPolicy = word as ApprovalPolicy;
    } else {
      throw new UsageError(`Unknown /permissions argument "${terminalText(word)}"`, {
        hint: `Give a sandbox mode, an approval policy or one of each: ${choices()}`,
      });
    }
  }
  return update;
}

function choices(): string {
  return `${SANDBOX_MODES.join(", ")}; ${APPROVAL_POLICIES.join(", ")}`;
}

/** Lists what runs under the wider mode and asks to stop it before the mode narrows. */
function askStop(ctx: PermissionsContext): StopRunning {
  return async (running) => {
    const one = running.length === 1;
    ctx.print([
      `${one ? "This was" : "These were"} started under the wider sandbox mode and would go on ` +
      "running under it:",
      ...running.map((line) => `  ${terminalText(line)}`),
    ]);
    const answer = (await ctx.ask(`Stop ${one ? "it" : "them"} and change? [y/N] › `))?.trim();
    return /^y(es)?$/i.test(answer ?? "");
  };
}
