/** The session picker of `interpreter resume` and `/resume`: when, directory, first prompt. */
import { terminalText } from "../../approval/visible.ts";
import { listSavedSessions, type SavedSessionListing } from "../../session/saved_sessions.ts";
import { makeStyle, type Style } from "../term/style.ts";
import type { ReplInput } from "./input.ts";
import { pickFromList, type RawTerminal } from "./list_picker.ts";
import type { Terminal } from "./terminal.ts";
import { pickerAccess } from "./terminal_mode.ts";

const SHOWN = 20;

/** Options of `pickSession()`. */
export interface PickOptions {
  /** Only sessions of this directory; undefined for all. */
  cwd?: string;
  print(lines: string[]): void;
  ask(prompt: string): Promise<string | null>;
  style: Style;
  /** The terminal's keys in raw mode: the list is picked with the arrows, Esc cancels (/model's). */
  rawTerminal?<T>(run: (terminal: RawTerminal) => Promise<T>): Promise<T>;
}

/** What the REPL's picker talks through: its transcript, its prompt, its raw terminal if any. */
export function replPicking(p: {
  transcript: { lines(lines: string[]): void };
  input: ReplInput;
  style: Style;
  term: Terminal;
}): Omit<PickOptions, "cwd"> {
  const print = (lines: string[]) => p.transcript.lines(lines);
  return { print, ask: (prompt) => p.input.next(prompt), style: p.style, ...pickerAccess(p) };
}

/**
 * Lists the newest sessions one can resume (those with a user message, as `resume --last`) and
 * returns the id the user picks, or undefined.
 */
export async function pickSession(home: string, opts: PickOptions): Promise<string | undefined> {
  const { sessions, namesError } = await listSavedSessions(home, { cwd: opts.cwd, limit: SHOWN });
  if (sessions.length === 0) {
    opts.print([`No saved sessions${opts.cwd ? ` for "${terminalText(opts.cwd)}"` : ""}`]);
    return undefined;
  }
  if (namesError) {
    opts.print([opts.style.dim(`Session names not shown: ${terminalText(namesError.message)}`)]);
  }
  if (opts.rawTerminal) return await pickInList(sessions, opts.rawTerminal, opts);
  opts.print(sessions.map((s, i) => pickerLine(s, i + 1, opts.style)));
  const answer = (await opts.ask(`Session number (Enter to cancel) › `))?.trim() ?? "";
  const index = Number(answer);
  if (!answer || !Number.isInteger(index) || index < 1 || index > sessions.length) {
    return undefined;
  }
  return sessions[index - 1].id;
}

/** The sessions in the arrow-key list picker; Esc or Ctrl-C cancels and says so. */
async function pickInList(
  sessions: SavedSessionListing[],
  rawTerminal: NonNullable<PickOptions["rawTerminal"]>,
  opts: PickOptions,
): Promise<string | undefined> {
  const plain = makeStyle(false);
  const items = sessions.map((s, i) => ({ label: pickerLine(s, i + 1, plain), value: s.id }));
  const title = "Resume which session? (Enter resumes, Esc cancels)";
  const id = await rawTerminal((t) => pickFromList(t, { title, items, style: opts.style }));
  if (id === undefined) opts.print([opts.style.dim("resume cancelled")]);
  return id;
}

/**
 * One saved session, its name (`/rename`) first when it has one; what a session file says is
 * shown with control characters made visible.
 */
function pickerLine(s: SavedSessionListing, n: number, style: Style): string {
  const prompt = terminalText((s.firstPrompt ?? "(no prompt)").replace(/\s+/g, " ").slice(0, 60));
  const named = s.name === undefined ? "" : `${style.bold(terminalText(s.name))} · `;
  return `${String(n).padStart(2)}  ${style.dim(ago(s.modified))}  ${terminalText(s.cwd)}  ` +
    named + prompt + (s.origin === "repl" ? "" : style.dim(` (${terminalText(s.origin)})`));
}

function ago(when: Date): string {
  const s = Math.max(0, Math.round((Date.now() - when.getTime()) / 1000));
  if (s < 60) return `${s}s ago`.padStart(8);
  if (s < 3600) return `${Math.round(s / 60)}m ago`.padStart(8);
  if (s < 86400) return `${Math.round(s / 3600)}h ago`.padStart(8);
  return `${Math.round(s / 86400)}d ago`.padStart(8);
}
