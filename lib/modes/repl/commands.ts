/**
 * The REPL's slash commands. Each one prints to the transcript and returns. What a server, a
 * file or a session reports is shown with its control characters made visible (`terminalSafe`).
 */
import { terminalSafe, terminalText } from "../../approval/visible.ts";
import { formatDuration, type Style } from "../term/progress.ts";
import { REASONING_EFFORTS } from "../../config/schema.ts";
import { type ReviewBase, runReviewTurn, withReviewSession } from "../../review/review.ts";
import { pickReviewTarget } from "./review_picker.ts";
import type { ReasoningEffort, Session, SessionEvent } from "../../session/open.ts";
import type { ModelChoice, ProviderChoice } from "../../session/choices.ts";
import { colorDiff } from "./render.ts";

/** What a command can reach. */
export interface CommandContext {
  /** The current session; `/new` and `/resume` replace it. */
  session(): Session;
  print(lines: string[]): void;
  style: Style;
  /** Shows long text through `$PAGER` when it does not fit the screen. */
  page(text: string): Promise<void>;
  /** Runs `task` with Ctrl-C tied to its signal, like a turn. */
  interruptible<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Replaces the session with a fresh one, same settings. */
  newSession(): Promise<void>;
  /** Lets the user pick a saved session and continues it. */
  resumeSession(): Promise<void>;
  /** Reads one answer line (a picker's); null at end of input. */
  ask(prompt: string): Promise<string | null>;
  /** What the current session was opened from, to open another beside it (`/review`). */
  reviewBase(): ReviewBase;
}

/** What the REPL does after a command. */
export type CommandResult = "exit" | undefined | void;

interface Command {
  name: string;
  summary: string;
  run(arg: string, ctx: CommandContext): Promise<CommandResult> | CommandResult;
}

const LATER = ["mcp", "init", "hooks"];

const COMMANDS: Command[] = [
  { name: "help", summary: "list the commands", run: (_, ctx) => ctx.print(helpLines(ctx.style)) },
  {
    name: "status",
    summary: "provider, model, harness, sandbox, session and context",
    run: status,
  },
  { name: "model", summary: "show the model, or switch: /model NAME or PROVIDER/NAME", run: model },
  { name: "harness", summary: "list the harnesses, or switch: /harness ID", run: harness },
  { name: "permissions", summary: "the sandbox mode and approval policy", run: permissions },
  { name: "diff", summary: "the working tree against HEAD, untracked files included", run: diff },
  {
    name: "review",
    summary: "review changes in a fresh read-only session: pick what, or /review INSTRUCTIONS",
    run: review,
  },
  { name: "ps", summary: "background jobs", run: ps },
  { name: "stop", summary: "stop a background job: /stop ID", run: stop },
  { name: "new", summary: "start a fresh session with the same settings", run: fresh },
  { name: "compact", summary: "summarize the history to free context", run: compact },
  { name: "resume", summary: "continue a saved session", run: (_, ctx) => ctx.resumeSession() },
  { name: "debug-config", summary: "effective config values and their origins", run: debugConfig },
  { name: "skills", summary: "the skills found, with their descriptions", run: skills },
  { name: "exit", summary: "leave (also /quit, Ctrl-D)", run: () => "exit" },
  { name: "quit", summary: "leave", run: () => "exit" },
];

/** True when `line` is a slash command rather than a message. */
export function isCommand(line: string): boolean {
  return /^\/[a-z][\w-]*(\s|$)/i.test(line.trim());
}

/** Runs the slash command in `line`. */
export async function runCommand(line: string, ctx: CommandContext): Promise<CommandResult> {
  const trimmed = line.trim();
  const space = trimmed.search(/\s/);
  const name = (space === -1 ? trimmed.slice(1) : trimmed.slice(1, space)).toLowerCase();
  const arg = space === -1 ? "" : trimmed.slice(space + 1).trim();
  const command = COMMANDS.find((c) => c.name === name);
  if (command) return await command.run(arg, ctx);
  if (LATER.includes(name)) {
    ctx.print([`/${name} comes in a later release`]);
    return;
  }
  const near = closest(name, [...COMMANDS.map((c) => c.name), ...LATER]);
  ctx.print([
    `Unknown command "/${name}"${near ? `; did you mean /${near}?` : ""} (/help lists them)`,
  ]);
}

function helpLines(style: Style): string[] {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    ...COMMANDS.map((c) => `${style.bold(`/${c.name}`.padEnd(width))} ${c.summary}`),
    style.dim(`/${LATER.join(", /")} come in a later release`),
    style.dim("A line ending in \\ continues on the next one; Ctrl-C stops a turn"),
  ];
}

function status(_: string, ctx: CommandContext): void {
  const s = terminalSafe(ctx.session().status());
  const percent = s.contextWindow ? Math.round((s.contextUsed / s.contextWindow) * 100) : 0;
  const rows: Array<[string, string]> = [
    ["provider", `${s.provider} (${s.wireApi})`],
    ["model", s.model],
    ["harness", s.harness],
    ["sandbox", s.sandbox.startsWith(s.sandboxMode) ? s.sandbox : `${s.sandboxMode}: ${s.sandbox}`],
    ["approval", s.approval],
    ["network", s.network ? "allowed" : "blocked"],
    ["directory", s.cwd],
    ["session", s.sessionId ?? "not saved"],
    ["file", s.sessionFile ?? "none"],
    [
      "context",
      `${s.contextUsed} / ${s.contextWindow} tokens (${percent}%)` +
      (s.contextNote ? ctx.style.dim(" · the window is a guess") : ""),
    ],
    [
      "repairs",
      s.toolCallRepairs === undefined
        ? "off (tool_call_repair = false)"
        : `${s.toolCallRepairs} tool call${s.toolCallRepairs === 1 ? "" : "s"} recovered from text`,
    ],
    ["tokens", `${s.tokens.input} in, ${s.tokens.output} out`],
  ];
  ctx.print(rows.map(([k, v]) => `${ctx.style.dim(`${k}:`.padEnd(11))} ${v}`));
}

async function model(arg: string, ctx: CommandContext): Promise<void> {
  const session = ctx.session();
  if (!arg || /^\S+\/$/.test(arg)) return await listModels(arg.slice(0, -1), ctx);
  const [spec, effort] = arg.split(/\s+/);
  if (effort !== undefined && !(EFFORTS as readonly string[]).includes(effort)) {
    throw Object.assign(new Error(`Unknown reasoning effort "${effort}"`), {
      hint: `Use one of ${EFFORTS.join(", ")}`,
    });
  }
  await session.switchModel(spec, effort as ReasoningEffort | undefined);
  const s = terminalSafe(session.status());
  ctx.print([
    `model: ${s.provider}/${s.model}${s.reasoningEffort ? ` (effort ${s.reasoningEffort})` : ""} ` +
    `(harness ${s.harness})`,
  ]);
}

/** How many of a provider's models `/model` shows; `/model PROVIDER/` shows them all. */
const MODELS_SHOWN = 8;

/** `/model`: every provider, with the models of those usable now; `/model P/`: all of P's. */
async function listModels(only: string, ctx: CommandContext): Promise<void> {
  const session = ctx.session();
  const { style } = ctx;
  const providers = terminalSafe(await session.models());
  if (only && !providers.some((p) => p.provider === only)) {
    throw Object.assign(new Error(`Unknown provider "${only}"`), {
      hint: `Use one of ${providers.map((p) => `${p.provider}/`).join(", ")}`,
    });
  }
  const s = terminalSafe(session.status());
  ctx.print([
    `model: ${s.provider}/${s.model}${s.reasoningEffort ? ` (effort ${s.reasoningEffort})` : ""}`,
    ...providers.filter((p) => !only || p.provider === only).flatMap((p) => [
      `  ${p.current ? "*" : " "} ${p.provider.padEnd(14)} ${
        (p.model || "(name a model)").padEnd(28)
      } ` + style.dim(`${p.name}${p.key ? "" : ` · no key set (${p.envKey})`}`),
      ...(p.key || p.current ? modelLines(p, only ? Infinity : MODELS_SHOWN, style) : []),
    ]),
    style.dim(
      `/model NAME, /model PROVIDER/NAME, optionally with an effort: ${EFFORTS.join(", ")}; ` +
        "/model PROVIDER/ lists all of its models",
    ),
  ]);
}

function modelLines(p: ProviderChoice, most: number, style: CommandContext["style"]): string[] {
  if (p.live?.error) return [style.dim(`      cannot list the server's models: ${p.live.error}`)];
  const shown = p.models.slice(0, most);
  const width = Math.max(0, ...shown.map((m) => m.id.length));
  return [
    ...shown.map((m) =>
      `      ${m.current ? "*" : " "} ${m.id.padEnd(width)}  ${style.dim(modelFacts(m))}`
    ),
    ...(p.models.length > shown.length
      ? [style.dim(`        … ${p.models.length - shown.length} more: /model ${p.provider}/`)]
      : []),
  ];
}

/** `Name · 128k context · 8k output · reasoning · $0.57/$1.68 per 1M`, as far as known. */
function modelFacts(m: ModelChoice): string {
  const facts = [m.name];
  if (m.context) facts.push(`${tokens(m.context)} context`);
  if (m.output) facts.push(`${tokens(m.output)} output`);
  if (m.reasoning) facts.push("reasoning");
  const { input, output } = m.cost ?? {};
  if (input !== undefined && output !== undefined && input + output > 0) {
    facts.push(`$${input}/$${output} per 1M`);
  }
  return facts.join(" · ");
}

function tokens(n: number): string {
  return n >= 1_000_000 ? `${+(n / 1_000_000).toFixed(1)}M` : `${Math.round(n / 1000)}k`;
}

const EFFORTS = REASONING_EFFORTS;

async function harness(arg: string, ctx: CommandContext): Promise<void> {
  const session = ctx.session();
  if (arg) {
    await session.switchHarness(arg);
    return;
  }
  const list = terminalSafe(await session.harnesses());
  const width = Math.max(...list.map((h) => h.id.length));
  ctx.print([
    ...list.map((h) => {
      const mark = h.current ? "*" : " ";
      const auto = h.automatic ? ctx.style.dim(" (automatic)") : "";
      return `${mark} ${h.id.padEnd(width)}  ${h.label}${auto}`;
    }),
    ctx.style.dim("* in use; /harness ID switches, keeping the history"),
  ]);
}

function permissions(_: string, ctx: CommandContext): void {
  const s = terminalSafe(ctx.session().status());
  ctx.print([
    `sandbox: ${s.sandboxMode} (${s.sandbox})`,
    `approval: ${s.approval}`,
    `network: ${s.network ? "allowed" : "blocked"}`,
  ]);
}

async function diff(_: string, ctx: CommandContext): Promise<void> {
  const text = await ctx.session().diff();
  if (text.trim() === "") return ctx.print(["No changes against HEAD"]);
  await ctx.page(colorDiff(text.replace(/\n$/, ""), ctx.style));
}

async function review(arg: string, ctx: CommandContext): Promise<void> {
  const { style } = ctx;
  const target = arg
    ? { kind: "custom" as const, instructions: arg }
    : await pickReviewTarget({ git: ctx.session().git, print: ctx.print, ask: ctx.ask, style });
  if (!target) return;
  const base = ctx.reviewBase();
  // The answer is a JSON object: what the model writes is shown only beside its tool calls.
  const onEvent = (event: SessionEvent) => {
    if (event.type === "text_delta") return;
    if (event.type === "assistant_message") {
      if (!event.message.blocks.some((b) => b.type === "tool_call")) return;
    }
    base.io.onEvent(event);
  };
  const review = { ...base, config: { ...base.config, ephemeral: true }, io: { onEvent } };
  await withReviewSession(review, target, async (session, request) => {
    ctx.print([style.bold(`Reviewing ${terminalText(request.hint)}`)]);
    const result = await ctx.interruptible((signal) => runReviewTurn(session, request, signal));
    if (result.text !== undefined) ctx.print(["", ...terminalText(result.text).split("\n")]);
  });
}

function ps(_: string, ctx: CommandContext): void {
  const jobs = terminalSafe(ctx.session().jobs());
  if (jobs.length === 0) return ctx.print(["No background jobs"]);
  const now = Date.now();
  ctx.print(jobs.map((j) => {
    const state = j.status === "running"
      ? "running"
      : j.signal
      ? `ended by ${j.signal}`
      : `exited ${j.exitCode}`;
    return `${j.id}  ${state.padEnd(12)} ${
      formatDuration(now - j.startedAt).padEnd(9)
    } ${j.command}`;
  }));
}

async function stop(arg: string, ctx: CommandContext): Promise<void> {
  if (!arg) return ctx.print(["Give the job id: /stop ID (/ps lists them)"]);
  const job = terminalSafe(await ctx.session().stopJob(arg));
  ctx.print([job.wasRunning ? `Stopped ${job.id}: ${job.command}` : `${job.id} had already ended`]);
}

async function fresh(_: string, ctx: CommandContext): Promise<void> {
  await ctx.newSession();
}

async function compact(_: string, ctx: CommandContext): Promise<void> {
  await ctx.interruptible((signal) => ctx.session().compact(signal));
}

function debugConfig(_: string, ctx: CommandContext): void {
  ctx.print(terminalText(ctx.session().debugConfig()).replace(/\n$/, "").split("\n"));
}

async function skills(_: string, ctx: CommandContext): Promise<void> {
  const list = terminalSafe(await ctx.session().skills());
  if (list.length === 0) return ctx.print(["No skills found"]);
  ctx.print(list.map((s) => `${ctx.style.bold(s.name)}  ${s.description}`));
}

/** The known name nearest to `name`, when it is near enough to be a likely typo. */
export function closest(name: string, known: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = candidate.startsWith(name) && name.length > 0 ? 0.5 : distance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}
