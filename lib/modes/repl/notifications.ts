/**
 * `[tui] notifications` in the REPL (Codex's keys): when a turn ends or an approval or a question
 * waits, a BEL or an OSC 9 desktop notice goes to the terminal, unless the terminal reported that
 * it has focus (`notification_condition = "unfocused"`, the default). Focus reporting (`CSI ? 1004
 * h`) is asked for while the REPL runs; the terminal's `CSI I` and `CSI O` replies are taken out
 * of the input before anything reads it. Loaded only when notifications are on.
 */
import type { NotificationKind, TuiTable } from "../../config/_codex_keys.ts";

/** How a notification reaches the terminal. */
export type NotificationMethod = "osc9" | "bel";

const FOCUS_ON = "\x1b[?1004h";
const FOCUS_OFF = "\x1b[?1004l";
const FOCUS_IN = "\x1b[I";
const FOCUS_OUT = "\x1b[O";
const BEL = "\x07";
/** Terminals (`TERM_PROGRAM`) that show OSC 9 as a desktop notification. */
const OSC9_PROGRAMS = new Set(["iTerm.app", "WezTerm", "ghostty", "WarpTerminal"]);
/** The longest notice text sent with OSC 9. */
const MAX_NOTICE = 120;

/**
 * The method `auto` picks under `env`: OSC 9 where the terminal is known to show it (iTerm2,
 * WezTerm, kitty, ghostty, Warp, Windows Terminal), else BEL. Inside tmux or screen, whose
 * outer terminal is unknown, BEL.
 */
export function autoMethod(env: Record<string, string | undefined>): NotificationMethod {
  if (env.TMUX || env.STY) return "bel";
  if (OSC9_PROGRAMS.has(env.TERM_PROGRAM ?? "")) return "osc9";
  if (/^xterm-(kitty|ghostty)$/.test(env.TERM ?? "")) return "osc9";
  return env.KITTY_WINDOW_ID || env.WEZTERM_PANE || env.WT_SESSION ? "osc9" : "bel";
}

/** The bytes that send `text` by `method`: OSC 9 carries it, on one line, without controls. */
export function noticeBytes(method: NotificationMethod, text: string): string {
  if (method === "bel") return BEL;
  // deno-lint-ignore no-control-regex -- control characters would end or break the sequence
  const clean = text.replace(/[\x00-\x1f\x7f-\x9f]+/g, " ").trim();
  const short = clean.length > MAX_NOTICE ? `${clean.slice(0, MAX_NOTICE - 1)}…` : clean;
  return `\x1b]9;${short || "interpreter"}${BEL}`;
}

/** What the notifier needs of the REPL. */
export interface NotifierOptions {
  env: Record<string, string | undefined>;
  write(text: string): void;
  /** The terminal takes no escape sequences: BEL only, and no focus reporting. */
  plain: boolean;
}

/** The REPL's notifications and the terminal focus they depend on (see the module comment). */
export class ReplNotifier {
  readonly #kinds: ReadonlySet<NotificationKind>;
  readonly #method: NotificationMethod;
  readonly #always: boolean;
  readonly #opts: NotifierOptions;
  /** What the terminal last reported; undefined until it reports. */
  #focused: boolean | undefined;
  #reporting = false;

  constructor(tui: TuiTable, opts: NotifierOptions) {
    const on = tui.notifications;
    this.#kinds = new Set<NotificationKind>(
      on === true ? ["agent-turn-complete", "approval-requested"] : on || [],
    );
    const method = tui.notification_method ?? "auto";
    this.#method = opts.plain ? "bel" : method === "auto" ? autoMethod(opts.env) : method;
    this.#always = tui.notification_condition === "always";
    this.#opts = opts;
  }

  /** Whether any notification is on. */
  get on(): boolean {
    return this.#kinds.size > 0;
  }

  /** Asks the terminal for focus reports, when they matter; true if it did. */
  start(): boolean {
    if (!this.on || this.#always || this.#opts.plain || this.#reporting) return false;
    this.#reporting = true;
    this.#opts.write(FOCUS_ON);
    return true;
  }

  /** Stops the focus reports (the REPL leaves). */
  end(): void {
    if (!this.#reporting) return;
    this.#reporting = false;
    this.#opts.write(FOCUS_OFF);
  }

  /** `raw` input without the focus reports in it, which are noted. */
  strip(raw: string): string {
    if (!raw.includes(FOCUS_IN) && !raw.includes(FOCUS_OUT)) return raw;
    let out = "";
    // deno-lint-ignore no-control-regex -- focus reports start with ESC
    for (const part of raw.split(/(\x1b\[[IO])/)) {
      if (part === FOCUS_IN) this.#focused = true;
      else if (part === FOCUS_OUT) this.#focused = false;
      else out += part;
    }
    return out;
  }

  /** Sends `text` as a `kind` notification, if that kind is on and the user may be away. */
  send(kind: NotificationKind, text: string): void {
    if (!this.#kinds.has(kind)) return;
    if (!this.#always && this.#focused === true) return;
    this.#opts.write(noticeBytes(this.#method, text));
  }
}

/** The REPL's terminal and input as the notifier sets them up (terminal.ts, input.ts). */
export interface NotifierParts {
  term: { plain: boolean; notify?: (kind: NotificationKind, text: string) => void };
  input: { reports?: { strip(raw: string): string; end(): void } };
  env: Record<string, string>;
  write(text: string): void;
}

/** Gives `term` the notifier `tui` asks for, and `input` its focus reports when they matter. */
export function startNotifier(
  tui: TuiTable,
  parts: NotifierParts,
): void {
  const { term, input } = parts;
  const notifier = new ReplNotifier(tui, { env: parts.env, write: parts.write, plain: term.plain });
  term.notify = (kind, text) => notifier.send(kind, text);
  if (notifier.start()) input.reports = notifier;
}
