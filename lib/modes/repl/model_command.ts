/**
 * `/model`: on a terminal a picker of the models one can use now, then of the reasoning effort
 * where the model has one; elsewhere (a pipe) the providers and their models as a list.
 * `/model NAME` switches; the session refuses a name the provider's list does not have (`NAME!`
 * forces it), and the REPL words its hint (repl_hints.ts).
 */
import { terminalSafe } from "../../approval/visible.ts";
import { REASONING_EFFORTS } from "../../config/schema.ts";
import { UserError } from "../../errors.ts";
import type { ModelChoice, ProviderChoice } from "../../session/choices.ts";
import type { ReasoningEffort, Session } from "../../session/open.ts";
import type { Style } from "../term/style.ts";
import {
  type PickerItem,
  pickFromList,
  type PickOptions,
  type RawTerminal,
} from "./list_picker.ts";

/** What `/model` reaches of the REPL (a part of the commands' context). */
export interface ModelCommandContext {
  session(): Session;
  print(lines: string[]): void;
  style: Style;
  /** Asks for a missing provider key (as the first run does); true once one is stored. */
  enterKey?(error: unknown): Promise<boolean>;
  /** Hands the terminal's keys to a picker; absent when input is not a terminal that shows one. */
  rawTerminal?<T>(run: (terminal: RawTerminal) => Promise<T>): Promise<T>;
  /** Plain mode: the picker is a numbered list answered through `ask`. */
  numbered?: boolean;
  /** Reads one line (a numbered picker's answer); null at end of input. */
  ask?(prompt: string): Promise<string | null>;
}

/** Lets `run` pick from lists, each with one `pick` call. */
type Picking = <R>(
  run: (pick: <T>(opts: PickOptions<T>) => Promise<T | undefined>) => Promise<R>,
) => Promise<R>;

const EFFORTS = REASONING_EFFORTS;

/** The `/model` slash command. */
export const MODEL_COMMAND = {
  name: "model",
  summary: "pick a model, or switch: /model NAME or PROVIDER/NAME (NAME! if it is not listed)",
  run: model,
};

async function model(arg: string, ctx: ModelCommandContext): Promise<void> {
  const picking = pickingOf(ctx);
  if (!arg && picking) return await pickModel(ctx, picking);
  if (!arg || /^\S+\/$/.test(arg)) return await listModels(arg.slice(0, -1), ctx);
  const [given, effort] = arg.split(/\s+/);
  if (effort !== undefined && !(EFFORTS as readonly string[]).includes(effort)) {
    throw new UserError(`Unknown reasoning effort "${effort}"`, {
      hint: `Use one of ${EFFORTS.join(", ")}`,
    });
  }
  // The session checks the name against the list at hand: the server's is fetched first.
  if (!given.endsWith("!")) await ctx.session().models();
  await switchTo(ctx, given, effort as ReasoningEffort | undefined);
}

/**
 * Switches to `spec`; a provider whose key is not set has it asked for first (hidden, checked and
 * stored, as on the first run), then the switch is tried again.
 */
async function switchTo(ctx: ModelCommandContext, spec: string, effort?: ReasoningEffort) {
  // The session reports the switch (`model_switched`): that is the one line printed.
  try {
    await ctx.session().switchModel(spec, effort);
  } catch (error) {
    if (!(await ctx.enterKey?.(error))) throw error;
    await ctx.session().switchModel(spec, effort);
  }
}

/** A model one can pick: its provider and what the list says of it. */
interface Pickable {
  provider: string;
  model: ModelChoice;
}

/** The picker: a model of a provider usable now, then its reasoning effort where it has one. */
async function pickModel(ctx: ModelCommandContext, picking: Picking): Promise<void> {
  const { style } = ctx;
  const session = ctx.session();
  const items = pickableModels(terminalSafe(await session.models()), style);
  if (items.length === 0) return await listModels("", ctx);
  const current = session.settings.reasoningEffort;
  const picked = await picking(async (pick) => {
    const initial = Math.max(0, items.findIndex((item) => item.value.model.current));
    const chosen = await pick({ title: "Model", items, initial, style });
    if (!chosen?.model.reasoning) return chosen && { chosen };
    const effort = await pick({
      title: `Reasoning effort of ${chosen.model.id}`,
      items: effortItems(current),
      initial: EFFORTS.indexOf(current ?? "medium"),
      style,
    });
    return effort && { chosen, effort };
  });
  if (!picked) return ctx.print([style.dim("model unchanged")]);
  const { chosen, effort } = picked;
  await switchTo(ctx, `${chosen.provider}/${chosen.model.id}`, effort);
}

/** How the picker reaches the user: the terminal's keys, or numbered lines (plain mode). */
function pickingOf(ctx: ModelCommandContext): Picking | undefined {
  const { rawTerminal, ask } = ctx;
  if (rawTerminal) return (run) => rawTerminal((terminal) => run((o) => pickFromList(terminal, o)));
  if (!ctx.numbered || !ask) return undefined;
  return async (run) => {
    const { pickNumbered } = await import("./plain_choices.ts");
    return await run((o) => pickNumbered(o, { print: ctx.print, read: ask }));
  };
}

/** The models of each provider usable now (its key is set, its server answered), as rows. */
export function pickableModels(providers: ProviderChoice[], style: Style): PickerItem<Pickable>[] {
  return providers
    .filter((p) => p.current || (p.key && !p.live?.error))
    .flatMap((p) => {
      const listed = p.models.some((m) => m.id === p.model) || !p.model;
      const own = listed ? [] : [{ id: p.model, name: p.model, current: p.current }];
      return [...p.models, ...own].map((m) => ({
        label: `${p.provider}/${m.id}`,
        detail: (m.current ? `${style.bold("in use")} · ` : "") + modelFacts(m),
        keywords: `${p.provider}/${m.id} ${m.name}`,
        value: { provider: p.provider, model: m },
      }));
    });
}

function effortItems(current: ReasoningEffort | undefined): PickerItem<ReasoningEffort>[] {
  return EFFORTS.map((effort) => ({
    label: effort,
    ...(effort === current ? { detail: "in use" } : {}),
    value: effort,
  }));
}

/** How many of a provider's models `/model` shows; `/model PROVIDER/` shows them all. */
const MODELS_SHOWN = 8;

/** `/model`: every provider, with the models of those usable now; `/model P/`: all of P's. */
async function listModels(only: string, ctx: ModelCommandContext): Promise<void> {
  const session = ctx.session();
  const { style } = ctx;
  const providers = terminalSafe(await session.models());
  if (only && !providers.some((p) => p.provider === only)) {
    throw new UserError(`Unknown provider "${only}"`, {
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
        "/model PROVIDER/ lists all of its models; NAME! uses a name that is not listed",
    ),
  ]);
}

function modelLines(p: ProviderChoice, most: number, style: Style): string[] {
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
