/**
 * `/permissions`: the sandbox mode, approval policy and network access in use; `/permissions
 * MODE`, `/permissions POLICY` (or both) change them in place, as Codex's `/permissions` does.
 * A narrower mode first stops what runs in the background under the wider one, after a yes.
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
  summary: "the sandbox mode and approval policy; /permissions MODE or POLICY changes them",
  run: permissions,
};

async function permissions(arg: string, ctx: PermissionsContext): Promise<void> {
  const words = arg.trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) {
    await ctx.session().configure(updateOf(words), { stopRunning: askStop(ctx) });
  }
  const s = terminalSafe(ctx.session().status());
  ctx.print([
    `sandbox: ${s.sandboxMode} (${s.sandbox})`,
    `approval: ${s.approval}`,
    `network: ${s.network ? "allowed" : "blocked"}`,
    ...(words.length
      ? []
      : [ctx.style.dim(`/permissions MODE or POLICY changes them: ${choices()}`)]),
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
