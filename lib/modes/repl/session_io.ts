/**
 * What the REPL shows of and gives to the session it drives: the banner, the context notes said
 * once per run, the session's IO (events, approvals, questions, trust), and the settings `/new`
 * keeps.
 */
import { terminalSafe } from "../../approval/visible.ts";
import {
  type Session,
  type SessionConfig,
  type SessionEvent,
  type SessionIO,
  settingsConfig,
} from "../../session/open.ts";
import { harnessLabel } from "../../session/status.ts";
import type { Style } from "../term/style.ts";
import { replApprover } from "./approvals.ts";
import { replAskUser } from "./ask_user.ts";
import type { ReplInput } from "./input.ts";
import type { Transcript } from "./render.ts";
import type { Terminal } from "./terminal.ts";

/** Events that come many a second and change nothing of the status line. */
const STREAMED = new Set(["text_delta", "thinking_delta", "tool_progress", "subagent"]);

/** The context-window notes shown so far: each is said once per run, not at every `/new`. */
export class ContextNotes {
  #shown = new Set<string>();

  /** True the first time `note` comes up in this run. */
  firstTime(note: string): boolean {
    if (this.#shown.has(note)) return false;
    this.#shown.add(note);
    return true;
  }

  /** `event` without a context note this run has shown already. */
  deduped(event: SessionEvent): SessionEvent {
    if (event.type !== "model_switched" || !event.contextNote) return event;
    return this.firstTime(event.contextNote) ? event : { ...event, contextNote: undefined };
  }
}

/** The banner of an opened session: what it runs on, and its context note the first time. */
export function bannerLines(
  session: Session,
  opts: { resumed: boolean; style: Style; notes: ContextNotes; term?: { plain: boolean } },
): string[] {
  const s = terminalSafe(session.status());
  const { style } = opts;
  // Without raw keys (plain line input), Esc reaches no one.
  const stop = opts.term?.plain ? "Ctrl-C" : "Esc or Ctrl-C";
  const resumed = session.status().sessionId && opts.resumed
    ? style.dim(` · resumed ${s.sessionId}`)
    : "";
  return [
    `${style.bold("interpreter")} · model ${s.model} · provider ${s.provider} · ` +
    `harness ${harnessLabel(s)} · sandbox ${s.sandboxMode} · approval ${s.approval}${resumed}`,
    style.dim(`/help lists the commands; ${stop} stops a turn; Ctrl-D leaves`),
    ...(s.worktree ? [style.dim(`worktree: ${s.worktree}`)] : []),
    ...(s.contextNote && opts.notes.firstTime(s.contextNote) ? [style.dim(s.contextNote)] : []),
    ...(s.harnessReason ? [style.dim(`harness chosen by: ${s.harnessReason}`)] : []),
  ];
}

/** What `/new` keeps of the session in use: its harness, model, effort, sandbox and approval. */
export function keptSettings(
  session: Session | undefined,
  labels: SessionConfig["labels"],
): Partial<SessionConfig> {
  const s = session?.settings;
  if (!s) return {};
  const kept = {
    model: "/new",
    provider: "/new",
    harness: "/new",
    reasoningEffort: "/new",
    sandbox: "/new",
    approval: "/new",
  };
  return { ...settingsConfig(s), labels: { ...labels, ...kept } };
}

/** What the REPL's IO is made of. */
export interface ReplIOParts {
  transcript: Transcript;
  input: ReplInput;
  style: Style;
  term: Terminal;
  notes: ContextNotes;
  trustDefinitions: NonNullable<SessionIO["trustDefinitions"]>;
  /** The status line after an event that may change it; none with `status_line = false`. */
  statusLine(): string | undefined;
}

/** What a session tells and asks the REPL through; without a terminal, nothing is asked. */
export function replSessionIO(parts: ReplIOParts): SessionIO {
  const { transcript, input, style, term, notes } = parts;
  const print = (lines: string[]) => {
    transcript.stopSpinner();
    transcript.lines(lines);
  };
  if (!term.interactive) return { onEvent: (event) => transcript.handle(notes.deduped(event)) };
  const ask = replAskUser(print, (prompt, signal) => input.line(prompt, signal), style);
  return {
    onEvent: (event) => {
      notifyOf(event, term);
      const show = () => {
        transcript.handle(notes.deduped(event));
        if (!STREAMED.has(event.type)) transcript.setStatusLine(parts.statusLine());
      };
      if (input.printAbove) input.printAbove(show);
      else show();
    },
    approve: replApprover({
      print,
      answer: (prompt, signal) => input.answer(prompt, signal),
      style,
      numbered: term.plainMode,
    }),
    askUser: (questions, meta, signal) => {
      term.notify?.("approval-requested", "interpreter has a question for you");
      return ask(questions, meta, signal);
    },
    trustDefinitions: parts.trustDefinitions,
  };
}

/** The notification an event calls for: a turn that ended (not stopped), an approval waiting. */
function notifyOf(event: SessionEvent, term: Terminal): void {
  if (!term.notify) return;
  if (event.type === "turn_end" && event.outcome.status !== "aborted") {
    const answer = event.outcome.status === "completed" ? event.outcome.finalText : "";
    term.notify("agent-turn-complete", `Turn complete${answer ? `: ${answer}` : ""}`);
  } else if (event.type === "approval_requested") {
    term.notify("approval-requested", `Approval requested: ${event.question.subject}`);
  }
}
