/**
 * `interpreter [PROMPT]` and `interpreter resume`: the line-oriented REPL. A banner, a prompt,
 * and a scrolling transcript of the session's events below it; approvals are asked inline and
 * slash commands reach the session's controls.
 */
import { terminalText } from "../../approval/visible.ts";
import { configHome } from "../../config/load.ts";
import { UsageError } from "../../errors.ts";
import { repeatedCallFailure } from "../term/loop_stop.ts";
import { makeStyle, type Style } from "../term/style.ts";
import { sessionStatusLine, wakeupLine } from "../term/status_line.ts";
import type { StatusScript } from "../term/status_script.ts";
import type { Timer } from "../../tools/schedule.ts";
import { dueTimers } from "./wakeups.ts";
import {
  freshOpening,
  type Opening,
  openSession,
  type PromptOutcome,
  reconfigured,
  resolveOpening,
  resumedIn,
  type Session,
  type SessionConfig,
  type SessionIO,
} from "../../session/open.ts";
import { type CommandContext, type CommandResult, isCommand, runCommand } from "./commands.ts";
import { loadHistory, saveHistory } from "./history.ts";
import { mentionCompleter, plainInput, type ReplInput, terminalInput } from "./input.ts";
import { forkedLines } from "./fork_command.ts";
import { goOn } from "./go_on.ts";
import { PLAN_PROMPT, reviewPlan } from "./plan_command.ts";
import { ProviderSetup } from "./provider_setup.ts";
import { settleLocalProvider } from "../../session/setup.ts";
import { arenaContinueLine, inReplTerms, resumeHint } from "./repl_hints.ts";
import { bannerLines, ContextNotes, keptSettings, replSessionIO } from "./session_io.ts";
import type { Transcript } from "./render.ts";
import { replTrustQuestion } from "./trust_question.ts";
import { pageText, startNotifications, type Terminal, writeOut } from "./terminal.ts";
import { pickerAccess, promptIn, replTerminal, transcriptKind } from "./terminal_mode.ts";
const turns = () => import("./mention_turn.ts"); // a typed prompt: its @mentions, images
const steering = () => import("./steering.ts"); // lines typed during a turn

/** The input prompt. */
export const PROMPT = "› ";

/** Options of `runRepl()`. */
export interface ReplOptions {
  /** The first message, from the command line. */
  prompt?: string;
  /** The session to open; its `resume` names a saved one to continue. */
  config: SessionConfig;
  /** Open the picker first (`interpreter resume` without an id). */
  pick?: { all?: boolean };
  /** Continue a copy of the saved session `config.resume` names (`interpreter fork`). */
  fork?: boolean;
}

/** Runs the REPL until end of input, Ctrl-D, Ctrl-C twice at an empty prompt, or `/exit`. */
export async function runRepl(opts: ReplOptions): Promise<number> {
  const env = Deno.env.toObject();
  const { cwd } = opts.config;
  // Refused before anything is asked (the first-run setup, the picker), as exec refuses; the
  // saved session named on the command line is found (and copied, for a fork) before too.
  let opening = await resolveOpening({
    config: opts.config,
    env,
    fork: opts.fork,
    startCommand: "interpreter",
  });
  if (opts.pick && !Deno.stdin.isTerminal()) {
    throw new UsageError("The session picker needs a terminal", {
      hint: 'Give the session id ("interpreter resume ID") or use --last',
    });
  }
  const home = configHome(env, cwd);
  const term = await replTerminal(opts.config, env);
  if (opts.config.oss === true && term.interactive) {
    // Which of several running local servers to use is asked before the line editor owns stdin.
    const oss = await settleLocalProvider(opts.config, env);
    opts = { ...opts, config: { ...opts.config, oss } };
    opening = reconfigured(opening, { oss });
  }
  const style = makeStyle(!term.plain);
  const transcript = new (await transcriptKind(term))({
    write: writeOut,
    style,
    spinner: term.interactive && !term.plain,
    hideReasoning: false,
    markdown: !term.plain,
  });
  const input = term.interactive && !term.plain
    ? terminalInput({
      write: writeOut,
      history: [],
      exitHint: style.dim("(Ctrl-C again, Ctrl-D or /exit to leave)"),
      completer: mentionCompleter(cwd),
    })
    : plainInput({ write: writeOut, showPrompt: term.interactive });
  const repl = new Repl({ cwd, env, home, opts, opening, term, style, transcript, input });
  try {
    return await repl.run();
  } finally {
    input.close();
  }
}

interface ReplParts {
  cwd: string;
  env: Record<string, string>;
  home: string;
  opts: ReplOptions;
  /** What the command line asked to open, resolved (a picked session is resolved later). */
  opening: Opening;
  term: Terminal;
  style: Style;
  transcript: Transcript;
  input: ReplInput;
}

class Repl {
  #p: ReplParts;
  #session: Session | undefined;
  #turn: AbortController | undefined;
  #idleInterrupts = 0;
  #quit = Promise.withResolvers<null>();
  #saveHistory = true;
  #exitCode = 0;
  /** The first-run offer and the missing-key question. */
  #setup: ProviderSetup;
  /** The open session continues a saved one (the banner says which). */
  #resumed = false;
  /** The context-window notes shown so far: each is said once per run, not at every `/new`. */
  #notes = new ContextNotes();
  /** Asks whether to trust a project's untrusted hooks and MCP servers (until a no). */
  #trustQuestion: NonNullable<SessionIO["trustDefinitions"]>;
  /** The session's status-line script, on a terminal (issue 33). */
  #script: StatusScript | undefined;
  #steering: import("./steering.ts").Steering | undefined; // loaded at the first turn
  #arenaLabels: string[] | undefined; // the next line may be "continue with X" (/arena)

  constructor(parts: ReplParts) {
    this.#p = parts;
    this.#setup = new ProviderSetup({ ...parts, write: writeOut });
    this.#trustQuestion = replTrustQuestion({
      print: (lines) => parts.transcript.lines(lines),
      line: (prompt) => parts.input.line(prompt),
      style: parts.style,
      numbered: parts.term.plainMode,
    });
  }

  /** What a session tells and asks the REPL through. */
  #io(): SessionIO {
    return replSessionIO({
      ...this.#p,
      notes: this.#notes,
      trustDefinitions: this.#trustQuestion,
      statusLine: () => this.#statusLine(),
    });
  }

  async run(): Promise<number> {
    const { opts, term } = this.#p;
    const onSignal = () => this.#signal();
    Deno.addSignalListener("SIGINT", onSignal);
    try {
      let { opening } = this.#p;
      if (opts.pick) {
        const id = await this.#pick(opts.pick.all ? undefined : this.#p.cwd);
        if (!id) return 0;
        opening = await resumedIn(opening, { id }, { env: this.#p.env, fork: opts.fork });
      }
      if (opening.forked) {
        this.#p.transcript.lines(forkedLines(opening.forked, undefined, this.#p.style));
      }
      await this.#setup.firstRun(opts.config, opening.resumed !== undefined);
      await this.#open(opening);
      await this.#loadSettings();
      let first = opts.prompt;
      while (true) {
        const fromArgs = (first ??= this.#steering?.next()) !== undefined; // or Tab-queued
        const prompt = promptIn(this.#p.term, this.#session?.planMode ? PLAN_PROMPT : PROMPT);
        const idle = new AbortController();
        const got = first ?? await Promise.race([
          this.#p.input.next(prompt, idle.signal),
          this.#quit.promise,
          dueTimers(this.#session!, idle.signal),
        ]);
        idle.abort();
        first = undefined;
        if (typeof got === "object" && got !== null) {
          await this.#wake(got.due);
          continue;
        }
        const line = got;
        if (line === null) {
          if (term.interactive) writeOut("\n" + resumeHint(this.#session));
          break;
        }
        if (line.trim() === "") continue;
        this.#idleInterrupts = 0;
        if (!term.interactive || fromArgs) this.#echo(line);
        await this.#remember(line);
        let send: string | undefined = line;
        const arenaPick = arenaContinueLine(line, this.#arenaLabels);
        this.#arenaLabels = undefined;
        if (isCommand(line) || arenaPick) {
          const result = await this.#command(arenaPick ?? line);
          if (result === "exit") break;
          // A command may send a prompt of its own (an MCP server's, /mcp__SERVER__PROMPT).
          send = typeof result === "object" ? result.prompt : undefined;
        }
        // In plan mode a turn ends with a plan to approve: "go" and "edit" send the next prompt.
        for (let next = send; next !== undefined;) {
          const ended = await this.#runTurn(next); // a limit asks to go on (go_on.ts)
          next = await goOn(ended, this.#session, this.#p) ?? await this.#reviewPlan();
        }
      }
      this.#p.transcript.endLine();
      return this.#exitCode;
    } finally {
      Deno.removeSignalListener("SIGINT", onSignal);
      this.#p.transcript.stopSpinner();
      await this.#session?.[Symbol.asyncDispose]();
    }
  }

  /** Runs the prompts of timers that came due while the prompt waited, soonest first. */
  async #wake(due: Timer[]): Promise<void> {
    for (const timer of due) {
      this.#p.transcript.lines([this.#p.style.dim(terminalText(wakeupLine(timer)))]);
      this.#echo(timer.prompt);
      await this.#runTurn(timer.prompt, (signal) => this.#session!.prompt(timer.prompt, signal));
    }
  }

  /** Ctrl-C as a signal: the terminal is not in raw mode (a pipe, TERM=dumb) or `kill -INT`. */
  #signal(): void {
    if (this.#turn) return this.#turn.abort();
    this.#idleInterrupts++;
    if (!this.#p.term.interactive || this.#idleInterrupts >= 2) {
      if (!this.#p.term.interactive) this.#exitCode = 130;
      return this.#quit.resolve(null);
    }
    const prompt = promptIn(this.#p.term, this.#session?.planMode ? PLAN_PROMPT : PROMPT);
    writeOut("\n(Ctrl-C again, Ctrl-D or /exit to leave)\n" + prompt);
  }

  /** Opens the session `opening` resolved; a missing key is asked for, then it opens again. */
  async #open(opening: Opening): Promise<void> {
    this.#resumed = opening.resumed !== undefined;
    const io = this.#io();
    this.#session = await openSession(opening, io, { env: this.#p.env }).catch(async (e) => {
      if (!(await this.#setup.enterKey(e))) throw e;
      return await openSession(opening, io, { env: this.#p.env });
    });
    const { style, term } = this.#p, notes = this.#notes, resumed = this.#resumed;
    this.#p.transcript.lines(bannerLines(this.#session, { resumed, style, notes, term }));
    const warn = (message: string) => this.#p.transcript.handle({ type: "warning", message });
    this.#script = this.#session.statusLineScript && this.#p.term.interactive
      ? await (await import("../term/status_script.ts"))
        .startStatusScript(this.#session, { cwd: this.#p.cwd, env: this.#p.env, warn })
      : undefined;
    if (this.#resumed) {
      const { recapLines } = await import("./recap.ts"); // only a resumed session has one
      this.#p.transcript.lines(recapLines(this.#session.replayHistory(), this.#p.style));
    }
  }

  async #loadSettings(): Promise<void> {
    const { config } = this.#session!;
    await startNotifications(config, this.#p);
    this.#p.transcript.setHideReasoning(config.hide_agent_reasoning === true);
    this.#p.transcript.setHideCommandOutput(config.hide_command_output === true);
    this.#saveHistory = config.history?.persistence !== "none";
    if (this.#saveHistory) this.#p.input.addHistory?.(await loadHistory(this.#p.home));
  }

  #echo(line: string): void {
    const shown = terminalText(line).split("\n").join("\n  ");
    this.#p.transcript.lines([this.#p.style.bold(`${promptIn(this.#p.term, PROMPT)}${shown}`)]);
  }

  async #remember(line: string): Promise<void> {
    if (!this.#saveHistory) return;
    await saveHistory(this.#p.home, { text: line, sessionId: this.#session?.status().sessionId });
  }

  async #runTurn(
    line: string,
    send?: (signal: AbortSignal) => Promise<PromptOutcome>,
  ): Promise<PromptOutcome | undefined> {
    const { transcript, style } = this.#p;
    try {
      await transcript.ready(); // the Markdown renderer, loaded before the first answer
      const outcome = await this.#interruptible((signal) =>
        send ? send(signal) : turns().then((m) => m.turn(this.#session!, line, signal, this.#p))
      );
      // The harnesses worth trying are known once the turn has ended.
      if (outcome.status === "repeated_call") {
        const { hint } = repeatedCallFailure(outcome, "/harness");
        transcript.lines([style.dim(terminalText(hint))]);
      }
      return outcome;
    } catch (error) {
      transcript.lines([
        style.red(`error: ${terminalText(String((error as Error).message ?? error))}`),
      ]);
    } finally {
      transcript.stopSpinner();
      transcript.endLine();
      await this.#script?.refresh(this.#session!.status());
      const status = this.#p.term.interactive ? this.#statusLine() : undefined;
      if (status) transcript.lines([style.dim(status)]);
    }
  }

  /** The session's status line (model, context, tokens, cost); none with `status_line = false`. */
  #statusLine(): string | undefined {
    return this.#session ? sessionStatusLine(this.#session, this.#script?.line()) : undefined;
  }

  async #interruptible<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.#turn = controller;
    this.#steering ??= new (await steering()).Steering(() => this.#session, () => this.#p);
    this.#p.input.busy(() => controller.abort(), this.#steering);
    try {
      return await task(controller.signal);
    } finally {
      this.#turn = undefined;
    }
  }

  async #command(line: string): Promise<CommandResult> {
    const { transcript, style } = this.#p;
    const ctx: CommandContext = {
      session: () => this.#session!,
      print: (lines) => transcript.lines(lines),
      style,
      page: (text) => pageText(text, this.#p),
      interruptible: (task) => this.#interruptible(task),
      newSession: () =>
        this.#replace(undefined, keptSettings(this.#session, this.#p.opts.config.labels)),
      resumeSession: async () => {
        const id = await this.#pick(this.#p.cwd);
        if (id) await this.#replace({ id });
      },
      continueSession: (id) => this.#replace({ id }),
      offerContinue: (labels) => void (this.#arenaLabels = labels),
      ask: (prompt) => this.#p.input.next(prompt),
      // A review talks to the model in use (after /model too), not the start-up one.
      reviewBase: () => ({
        opening: reconfigured(
          this.#p.opening,
          keptSettings(this.#session, this.#p.opts.config.labels),
        ),
        io: this.#io(),
        env: this.#p.env,
      }),
      runTurn: (prompt, send) => this.#runTurn(prompt, send),
      enterKey: (error) => this.#setup.enterKey(error),
      ...pickerAccess(this.#p),
    };
    try {
      return await runCommand(line, ctx);
    } catch (error) {
      const e = inReplTerms(error) as Error & { hint?: string };
      transcript.lines([
        style.red(`error: ${terminalText(String(e.message ?? e))}`),
        ...(e.hint ? [`hint: ${terminalText(e.hint)}`] : []),
      ]);
    }
  }

  /**
   * Replaces the session with the saved one `resume` names, or with a fresh one that keeps the
   * harness, model and effort in use (`keep`, from `/new`).
   */
  async #replace(resume: SessionConfig["resume"], keep?: Partial<SessionConfig>): Promise<void> {
    const fresh = reconfigured(freshOpening(this.#p.opening), keep ?? {});
    const next = resume ? await resumedIn(fresh, resume, { env: this.#p.env }) : fresh;
    const old = this.#session;
    this.#session = undefined;
    await old?.[Symbol.asyncDispose]();
    await this.#open(next);
  }

  #reviewPlan(): Promise<string | undefined> {
    const { transcript, input } = this.#p;
    const print = (lines: string[]) => transcript.lines(lines);
    return reviewPlan({ ...this.#p, session: this.#session!, print, ask: (p) => input.next(p) });
  }

  async #pick(cwd: string | undefined): Promise<string | undefined> {
    const { pickSession, replPicking } = await import("./picker.ts");
    return await pickSession(this.#p.home, { cwd, ...replPicking(this.#p) }); // Esc cancels
  }
}
