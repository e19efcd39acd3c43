/**
 * `/arena ARGS`: runs `interpreter arena ARGS --handoff FILE` on the REPL's terminal (the arena is
 * a front end of its own, so it runs as a child rather than being imported), then reads FILE: when
 * the user picked "continue with X", the REPL continues X's session in its own folder. The current
 * session stays whatever goes wrong.
 */
import { join } from "node:path";
import { terminalText } from "../../approval/visible.ts";
import { UsageError } from "../../errors.ts";
import { interpreterCommand } from "../../session/self_command.ts";
import { splitArgs } from "../../setups/commands/args.ts";
import type { Session } from "../../session/open.ts";
import type { Style } from "../term/style.ts";

/** What `/arena` uses of the REPL's command context. */
export interface ArenaContext {
  session(): Session;
  print(lines: string[]): void;
  style: Style;
  /** Runs `task` with Ctrl-C tied to its signal, like a turn. */
  interruptible<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Lends the terminal to a child while `run` runs; absent when no one is at a terminal. */
  onTerminal?<T>(run: () => Promise<T>): Promise<T>;
  continueSession(id: string): Promise<void>;
  /** The REPL's plain mode (numbered choices, no redraws). */
  numbered?: boolean;
  /** Lets the next line be `continue with X` (`/arena continue X`). */
  offerContinue?(labels: string[]): void;
  /** Its `env` is the REPL's, which the child gets. */
  reviewBase(): { env?: Record<string, string> };
}

/** A child process to run: its argv, folder, environment and where its stdin comes from. */
export interface ChildRun {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** "inherit": the terminal's; "null": nothing to read. */
  stdin: "inherit" | "null";
}

/** Runs a child to its end and answers its exit code (tests give a fake). */
export type Spawner = (child: ChildRun, signal: AbortSignal) => Promise<number>;

/** A contestant as the handoff names it; `session_id` is null when its run saved none. */
export interface HandoffContestant {
  label: string;
  session_id: string | null;
  harness: string;
  model: string;
}

/** What the arena wrote to the handoff file. */
export interface Handoff {
  applied: string | null;
  /** The contestant picked with `continue with X`. */
  continue: HandoffContestant | null;
  /** Every contestant that finished (absent from an older arena). */
  contestants?: HandoffContestant[];
}

/** The contestants of this REPL's last arena, for `/arena continue X` afterwards. */
let lastContestants: HandoffContestant[] = [];

interface Flag {
  names: string[];
  value?: string;
  text: string;
}

/**
 * The flags of `interpreter arena` (lib/cli/arena_cli.ts), for splitting and for the usage; a
 * REPL module may not import lib/cli, so arena_command_test.ts compares the two lists.
 */
export const ARENA_FLAGS: Flag[] = [
  { names: ["--harness"], value: "A,B", text: "harnesses to race (every harness × model pair)" },
  { names: ["-m", "--model"], value: "M1,M2", text: "models to race" },
  { names: ["--check"], value: "CMD", text: "a command that passes when the task is done" },
  {
    names: ["--pick"],
    value: "best|N|none",
    text: "apply without asking: the best that passed --check, that one, or nothing",
  },
  { names: ["-y", "--yes"], text: "apply protected paths (.git*, .openinterpreter/…) too" },
  { names: ["--timeout"], value: "SECONDS", text: "stop a contestant after this long" },
  { names: ["-c", "--config"], value: "KEY=VALUE", text: "a config override for every run" },
  { names: ["-p", "--profile"], value: "NAME", text: "a config profile for every run" },
  { names: ["-s", "--sandbox"], value: "MODE", text: "the contestants' sandbox mode" },
  { names: ["--out"], value: "DIR", text: "the job folder (default ~/.openinterpreter/arena/…)" },
  { names: ["-C", "--cd"], value: "DIR", text: "the repository (default: this session's folder)" },
];

/** `/arena`, as the command list takes it. */
export const ARENA_COMMAND = {
  name: "arena",
  summary: "race a prompt across harnesses and models; apply the best diff or continue one",
  run: (arg: string, ctx: ArenaContext) => arena(arg, ctx),
};

/** `/arena ARGS` with the real `interpreter arena`; `spawn` runs the child. */
export async function arena(arg: string, ctx: ArenaContext, spawn = spawnChild): Promise<void> {
  if (arg.trim() === "") return ctx.print(usageLines(ctx.style));
  const later = /^continue\s+(?:with\s+)?([a-z])$/i.exec(arg.trim())?.[1];
  if (later) return await continueLater(later, ctx);
  const args = arenaArgs(arg);
  const dir = await Deno.makeTempDir({ prefix: "oi-arena-handoff-" });
  try {
    const file = join(dir, "handoff.json");
    const child = {
      argv: [...interpreterCommand(), "arena", ...args.flags, "--handoff", file, ...args.prompt],
      cwd: ctx.session().status().cwd,
      env: {
        ...ctx.reviewBase().env ?? Deno.env.toObject(),
        // Plain mode: the arena's status comes as whole lines too.
        ...ctx.numbered ? { TERM: "dumb" } : {},
      },
    };
    const code = await ctx.interruptible((signal) =>
      ctx.onTerminal
        ? ctx.onTerminal(() => spawn({ ...child, stdin: "inherit" }, signal))
        : spawn({ ...child, stdin: "null" }, signal)
    );
    const handoff = await readHandoff(file);
    if (handoff === undefined) {
      const stopped = code === 130 || code === 143 || code === 129;
      const ended = stopped ? "The arena was stopped" : `The arena failed (exit ${code})`;
      if (code !== 0) ctx.print([`${ended}; this session goes on`]);
      return;
    }
    lastContestants = (handoff.contestants ?? []).filter((c) => c.session_id !== null);
    if (handoff.continue) return await continueContestant(handoff.continue, ctx);
    const labels = lastContestants.map((c) => c.label);
    if (labels.length === 0) return;
    ctx.offerContinue?.(labels);
    ctx.print([
      ctx.style.dim(
        `To carry on a contestant's conversation here: continue with ${labels.join("|")}` +
          " (or /arena continue X later)",
      ),
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** `/arena continue X`: continues contestant X of this REPL's last arena. */
async function continueLater(which: string, ctx: ArenaContext): Promise<void> {
  const label = which.toLowerCase();
  const found = lastContestants.find((c) => c.label === label);
  if (lastContestants.length === 0) {
    throw new UsageError("No arena ran in this REPL yet, so there is no contestant to continue", {
      hint: "/arena --harness a,b PROMPT runs one; each contestant's session is kept",
    });
  }
  if (!found) {
    throw new UsageError(`The last arena has no contestant "${terminalText(which)}" to continue`, {
      hint: `Continue one of ${lastContestants.map((c) => c.label).join(", ")}`,
    });
  }
  await continueContestant(found, ctx);
}

/** Continues `next`'s session in place of the current one, which stays if that fails. */
async function continueContestant(next: HandoffContestant, ctx: ArenaContext): Promise<void> {
  const who = `${next.label} (${next.harness} × ${next.model})`;
  if (next.session_id === null) {
    return ctx.print([terminalText(`${who} saved no session to continue; this session goes on`)]);
  }
  const id = next.session_id;
  await ctx.continueSession(id).catch((error) => {
    throw new UsageError(
      `Cannot continue ${terminalText(who)}'s session ${terminalText(id)}: ` +
        terminalText(String((error as Error).message ?? error)),
      { hint: `This session goes on; try "interpreter resume ${terminalText(id)}"` },
    );
  });
  ctx.print([ctx.style.bold(terminalText(`Continuing ${who}: session ${id}`))]);
}

/**
 * `text` split as a shell splits words: the flags of `interpreter arena` with their values
 * (anywhere, as on the command line, up to a `--`), and the other words joined into the prompt,
 * passed after `--` so that it may start with a dash.
 */
export function arenaArgs(text: string): { flags: string[]; prompt: string[] } {
  const words = splitArgs(text);
  const flags: string[] = [];
  const prompt: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === "--") {
      prompt.push(...words.slice(i + 1));
      break;
    }
    if (!word.startsWith("-") || word === "-") {
      prompt.push(word);
      continue;
    }
    flags.push(word);
    const flag = ARENA_FLAGS.find((f) => f.names.includes(word));
    if (!flag?.value) continue;
    if (i + 1 >= words.length) {
      throw new UsageError(`"${word}" needs a value: ${word} ${flag.value}`, {
        hint: "/arena alone lists the flags",
      });
    }
    flags.push(words[++i]);
  }
  return { flags, prompt: prompt.length ? ["--", prompt.join(" ")] : [] };
}

/**
 * The handoff the arena wrote to `file`; undefined when it wrote none (it failed, or it was
 * stopped). A file that is there but not the handoff's shape is refused.
 */
async function readHandoff(file: string): Promise<Handoff | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw garbled(file, String((error as Error).message ?? error));
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw garbled(file, (error as Error).message);
  }
  const problem = handoffProblem(value);
  if (problem) throw garbled(file, problem);
  return value as Handoff;
}

/** What keeps `value` from being a handoff, or undefined. */
function handoffProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return "it is not a JSON object";
  }
  const { applied, continue: next, contestants } = value as Record<string, unknown>;
  if (applied !== null && typeof applied !== "string") return `"applied" is not a label or null`;
  if (contestants !== undefined && !Array.isArray(contestants)) {
    return `"contestants" is not a list`;
  }
  const all = (contestants ?? []) as unknown[];
  return (next === null ? undefined : contestantProblem(next, "continue")) ??
    all.map((c, i) => contestantProblem(c, `contestants[${i}]`)).find(Boolean);
}

/** What keeps `value` (at `where` in the handoff) from being a contestant, or undefined. */
function contestantProblem(value: unknown, where: string): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `"${where}" is not an object`;
  }
  const fields = value as Record<string, unknown>;
  for (const key of ["label", "session_id", "harness", "model"]) {
    const field = fields[key];
    if (key === "session_id" && field === null) continue;
    if (typeof field !== "string" || field === "") return `"${where}.${key}" is not a string`;
  }
  return undefined;
}

function garbled(file: string, why: string): UsageError {
  return new UsageError(`Cannot read the arena's answer "${file}": ${why}`, {
    hint: "This session goes on; the arena's job folder keeps every run (interpreter eval report)",
  });
}

function usageLines(style: Style): string[] {
  const shown = ARENA_FLAGS.map((f) => `${f.names.join(", ")}${f.value ? ` ${f.value}` : ""}`);
  const width = Math.max(...shown.map((s) => s.length)) + 2;
  return [
    style.bold("/arena [FLAGS] PROMPT") +
    " runs PROMPT once per harness × model at the same time, each in a copy",
    ...ARENA_FLAGS.map((f, i) => `  ${shown[i].padEnd(width)}${f.text}`),
    style.dim(
      'Then pick one to apply, or "continue with X" to carry on X\'s conversation here; ' +
        "each contestant starts from the prompt alone",
    ),
  ];
}

/** Runs `child` to its end; Ctrl-C reaches it from the terminal, and it cleans up itself. */
export async function spawnChild(child: ChildRun, signal: AbortSignal): Promise<number> {
  const [program, ...args] = child.argv;
  const process = new Deno.Command(program, {
    args,
    cwd: child.cwd,
    env: child.env,
    clearEnv: true,
    stdin: child.stdin,
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  // A Ctrl-C that reached only this process (`kill -INT`) is passed on.
  const onAbort = () => {
    try {
      process.kill("SIGINT");
    } catch { /* it has ended */ }
  };
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    return (await process.status).code;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
