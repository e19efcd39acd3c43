/**
 * `/hooks`: every hook of the session with its event, matcher, command, source and trust state;
 * `/hooks trust N` (several numbers, or `all`) trusts a project's hooks, which then run from the
 * next event on, in this session and later ones, as long as their definition stays the same. On
 * a terminal it asks first. What the files hold is shown with control characters made visible.
 */
import { terminalSafe } from "../../approval/visible.ts";
import type { HookView } from "../../hooks/user_hooks.ts";
import type { Session } from "../../session/open.ts";
import type { Style } from "../term/style.ts";

/** What `/hooks` uses of the REPL's command context. */
export interface HooksContext {
  session(): Session;
  print(lines: string[]): void;
  style: Style;
  ask(prompt: string): Promise<string | null>;
  /** Present when input is a terminal: `/hooks trust` then asks for a yes. */
  rawTerminal?: unknown;
  /** Plain mode on a terminal: `/hooks trust` asks too. */
  numbered?: boolean;
}

/** `/hooks`, as the command list takes it. */
export const HOOKS_COMMAND = {
  name: "hooks",
  summary: "hooks: event, matcher, command, source and trust; /hooks trust N|all",
  run: hooks,
};

async function hooks(arg: string, ctx: HooksContext): Promise<void> {
  const hub = ctx.session().hooks;
  const [verb, ...rest] = arg.split(/[\s,]+/).filter(Boolean);
  if (verb === undefined) return ctx.print(hookListLines(terminalSafe(hub.list()), ctx.style));
  if (verb !== "trust") {
    return ctx.print([`Unknown argument "${verb}": /hooks lists the hooks, /hooks trust N|all`]);
  }
  const chosen = chooseHooks(hub.list(), rest);
  if (typeof chosen === "string") return ctx.print([chosen]);
  if ((ctx.rawTerminal || ctx.numbered) && !await confirmed(terminalSafe(chosen), ctx)) {
    return ctx.print(["Nothing was trusted"]);
  }
  const trusted = terminalSafe(await hub.trust(chosen.map((h) => h.index)));
  ctx.print([
    ...trusted.map((h) => `Trusted hook ${h.index}: ${h.event} ${h.command}`),
    ctx.style.dim("They run from now on, as your own commands outside the sandbox"),
  ]);
}

/** The untrusted hooks `/hooks trust ARGS` names, or what is wrong with ARGS. */
export function chooseHooks(list: HookView[], args: string[]): HookView[] | string {
  const untrusted = list.filter((h) => !h.trusted);
  if (untrusted.length === 0) return "Every hook is trusted already";
  if (args.length === 1 && args[0] === "all") return untrusted;
  if (args.length === 0) {
    return `Name the hooks to trust: /hooks trust ${untrusted[0].index}, or /hooks trust all`;
  }
  const chosen: HookView[] = [];
  for (const word of args) {
    const hook = /^\d+$/.test(word) ? list.find((h) => h.index === Number(word)) : undefined;
    if (!hook) return `No hook ${word}: /hooks lists them with their numbers`;
    if (hook.trusted) {
      return `Hook ${word} runs already: ${hook.scope === "user" ? "it is your own" : "trusted"}`;
    }
    if (!chosen.includes(hook)) chosen.push(hook);
  }
  return chosen;
}

async function confirmed(chosen: HookView[], ctx: HooksContext): Promise<boolean> {
  ctx.print([
    ...chosen.map((h) => `${h.index}. ${h.event}: ${h.command}`),
    "These commands will run on their events as your own commands, outside the sandbox.",
  ]);
  const answer = await ctx.ask(`Trust ${chosen.length === 1 ? "it" : "them"}? [y/N] `);
  return /^y(es)?$/i.test(answer?.trim() ?? "");
}

/** Events that take no matcher. */
const UNMATCHED = new Set(["UserPromptSubmit", "Stop"]);

/** `/hooks`: each hook in three lines, then how to trust the untrusted ones. */
export function hookListLines(list: HookView[], style: Style): string[] {
  if (list.length === 0) {
    return [
      "No hooks. Add [[hooks.EVENT]] tables to config.toml, or write hooks.json in the config " +
      "folder (README: Hooks)",
    ];
  }
  const lines: string[] = [];
  for (const hook of list) {
    const matcher = UNMATCHED.has(hook.event)
      ? ""
      : `  matcher ${hook.matcher === undefined || hook.matcher === "" ? "*" : hook.matcher}`;
    const state = hook.trusted
      ? style.dim(hook.scope === "user" ? "yours" : "trusted")
      : style.red(`untrusted: /hooks trust ${hook.index}`);
    lines.push(`${style.bold(`${hook.index}. ${hook.event}`)}${matcher}  ${state}`);
    const status = hook.statusMessage ? `, "${hook.statusMessage}"` : "";
    lines.push(`   ${hook.command}  ${style.dim(`(timeout ${hook.timeoutSec}s${status})`)}`);
    lines.push(`   ${style.dim(`${hook.scope}: ${hook.source}`)}`);
  }
  const waiting = list.filter((h) => !h.trusted).length;
  if (waiting > 0) {
    lines.push(style.dim(
      `${waiting} project hook${waiting === 1 ? "" : "s"} will not run until you trust ` +
        `${waiting === 1 ? "it" : "them"}: /hooks trust N, or /hooks trust all`,
    ));
  }
  return lines;
}
