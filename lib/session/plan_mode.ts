/**
 * Plan mode (`/plan`, or a harness's tool for it): while it is on, every turn runs read-only, the
 * model is told to investigate and propose a plan, and the plan it proposed waits for the user.
 * Read-only means: a tool that can change anything is refused before approval is asked, and every
 * command runs in a read-only sandbox of its own that no approval can lift. Leaving plan mode
 * (the user's "go") brings the session's own sandbox and approvals back.
 */
import { join } from "node:path";
import { COMMAND_CAPABILITIES, commandOf } from "../approval/policy.ts";
import { isKnownSafeShellCall } from "../approval/known_safe.ts";
import { SHARED_TEXTS_DIR } from "../harness/session_texts.ts";
import type { ToolHook, ToolHooks } from "../loop/tool_hooks.ts";
import { type Block, type Message, textOf } from "../model/message.ts";
import { TODO_STATE_KEY, type TodoItem } from "../tools/todo_write.ts";
import type { PlanModeControl } from "../tools/types.ts";
import { PLAN_STATE_KEY, type PlanStep } from "../tools/update_plan.ts";
import { type CommandSandbox, openCommandSandbox } from "../../sandbox/command_sandbox.ts";
import type { ProposedPlan } from "./types.ts";

/** The file of the instruction added to each plan-mode prompt. */
const PLAN_MODE_TEXT = join(SHARED_TEXTS_DIR, "plan_mode.md");

/** The capability whose call puts a plan before the user (a harness's ExitPlanMode). */
const PLAN_EXIT = "plan.exit";

/** What a session's plan mode works with. */
export interface PlanModeOptions {
  /** Opens the read-only sandbox plan-mode commands run in (once, when first needed). */
  openSandbox(): Promise<CommandSandbox>;
  /** Told about every call plan mode refuses. */
  onDenied?(reason: string, callId: string): void;
  /**
   * Turns plan mode on or off for a tool (a harness's EnterPlanMode), through the session's
   * settings so that the session file records it; without it the tool sets it here alone.
   */
  setByTool?(on: boolean): void;
}

/** One session's plan mode (see the module comment). */
export class PlanMode implements AsyncDisposable {
  #on = false;
  readonly #opts: PlanModeOptions;
  #sandbox: Promise<CommandSandbox> | undefined;
  #instruction: Promise<string> | undefined;
  /** The plan and todo lists as they were when the turn started, to see whether it wrote one. */
  #listsBefore = "";
  /** What a plan tool proposed in this turn (`undefined` text: the plan is in the answer). */
  #exit: { plan?: string } | undefined;
  #proposal: ProposedPlan | undefined;

  constructor(opts: PlanModeOptions) {
    this.#opts = opts;
  }

  get on(): boolean {
    return this.#on;
  }

  /** Turns plan mode on or off; off forgets the plan that waited. */
  set(on: boolean): void {
    this.#on = on;
    if (!on) this.#proposal = undefined;
  }

  /** The plan the last turn in plan mode proposed; undefined when it proposed none. */
  proposal(): ProposedPlan | undefined {
    return this.#proposal;
  }

  /** The prompt to send: with plan mode on, the plan-mode instruction after the user's text. */
  async startTurn(input: string | Block[], state: Map<string, unknown>): Promise<Block[]> {
    const blocks: Block[] = typeof input === "string" ? [{ type: "text", text: input }] : input;
    this.#listsBefore = listsOf(state);
    this.#exit = undefined;
    this.#proposal = undefined;
    if (!this.#on) return blocks;
    return [...blocks, { type: "text", text: await this.instruction(), context: true }];
  }

  /** Works out the turn's plan once it ended (`messages`: the history, the turn's last). */
  endTurn(state: Map<string, unknown>, messages: readonly Message[]): void {
    this.#proposal = this.#on ? this.#planOf(state, messages) : undefined;
  }

  #planOf(state: Map<string, unknown>, messages: readonly Message[]): ProposedPlan | undefined {
    const exitPlan = this.#exit?.plan?.trim();
    if (exitPlan) return { steps: planSteps(exitPlan), source: "plan_tool", text: exitPlan };
    if (listsOf(state) !== this.#listsBefore) {
      const steps = listSteps(state);
      if (steps.length > 0) return { steps, source: "plan_list" };
    }
    const answer = lastAnswer(messages).trim();
    return answer ? { steps: planSteps(answer), source: "answer", text: answer } : undefined;
  }

  /** The instruction each plan-mode prompt carries (`harnesses/_shared/plan_mode.md`). */
  instruction(): Promise<string> {
    this.#instruction ??= Deno.readTextFile(PLAN_MODE_TEXT).then((text) => text.trim());
    return this.#instruction;
  }

  /** What plan-mode tools reach (`TurnContext.planMode`). */
  control(): PlanModeControl {
    const isOn = () => this.#on;
    return {
      get on() {
        return isOn();
      },
      enter: () => {
        if (this.#opts.setByTool) this.#opts.setByTool(true);
        else this.set(true);
        return this.instruction();
      },
      propose: (text) => {
        this.#exit = { plan: text };
      },
    };
  }

  /** `base` (the session's links) with plan mode's link before them. */
  hooks(base: ToolHooks): ToolHooks {
    return (turn) => [this.#link(), ...base(turn)];
  }

  #link(): ToolHook {
    return {
      name: "plan mode",
      before: async (call) => {
        if (!this.#on) return undefined;
        const reason = await this.#refusal(call);
        if (reason === undefined) return undefined;
        this.#opts.onDenied?.(reason, call.id);
        return { action: "deny", reason };
      },
      after: (call, result) => {
        if (call.capability !== PLAN_EXIT || result.isError || !this.#on) {
          return Promise.resolve(undefined);
        }
        return Promise.resolve({
          action: "stop",
          outcome: { status: "completed", finalText: "" },
          reason: "the plan waits for the user's answer",
        });
      },
    };
  }

  /** Why plan mode refuses `call`; undefined when it may run. */
  async #refusal(
    call: { name: string; capability: string; mutates: boolean; input: unknown },
  ): Promise<string | undefined> {
    const hint = "Investigate with tools that only read, then propose your plan";
    if (COMMAND_CAPABILITIES.has(call.capability)) {
      const command = commandOf(call.input);
      if (command.escalated) {
        return "Plan mode is on: commands run in a read-only sandbox and cannot leave it\n" + hint;
      }
      if ((await this.readOnlySandbox()).status.enforced || isKnownSafeShellCall(command)) {
        return undefined;
      }
      return "Plan mode is on, and there is no OS sandbox here to run this command read-only: " +
        "only commands known to only read can run\n" + hint;
    }
    if (!call.mutates) return undefined;
    return `Plan mode is on: ${call.name} can change files, so it is not run until the user ` +
      `approves a plan\n${hint}`;
  }

  /** The read-only sandbox of plan-mode commands, opened on first use. */
  readOnlySandbox(): Promise<CommandSandbox> {
    this.#sandbox ??= this.#opts.openSandbox();
    return this.#sandbox;
  }

  /**
   * `normal` (the session's sandbox) while plan mode is off; while it is on, the read-only
   * sandbox, which runs a command inside it even when an approval granted leaving the sandbox
   * (where it is enforced; where it is not, plan mode lets only known read-only commands run).
   */
  sandbox(normal: CommandSandbox): CommandSandbox {
    const on = () => this.#on;
    return {
      get status() {
        return normal.status;
      },
      wrap: async (req) => {
        if (!on()) return await normal.wrap(req);
        const sandbox = await this.readOnlySandbox();
        return await sandbox.wrap(sandbox.status.enforced ? { ...req, escalated: false } : req);
      },
      ...(normal.spawn && {
        spawn: (req) => on() ? Promise.resolve(undefined) : normal.spawn!(req),
      }),
      ...(normal.retryUnsandboxed && {
        retryUnsandboxed: (command, output, call) =>
          on()
            ? Promise.resolve("Not run again outside the sandbox: plan mode is read-only")
            : normal.retryUnsandboxed!(command, output, call),
      }),
      close: () => Promise.resolve(),
    };
  }

  /** Closes the read-only sandbox; the next plan-mode command opens it again (a network change). */
  async closeSandbox(): Promise<void> {
    const sandbox = this.#sandbox;
    this.#sandbox = undefined;
    await (await sandbox?.catch(() => undefined))?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.closeSandbox();
  }
}

/** Opens the read-only sandbox plan-mode commands run in, beside the session's own. */
export function openReadOnlySandbox(
  opts: { home: string; networkAccess: boolean },
): Promise<CommandSandbox> {
  return openCommandSandbox({
    mode: "read-only",
    writableRoots: [],
    networkAccess: opts.networkAccess,
    // Background jobs write their output under the scratch root; commands may read it.
    readablePaths: [join(opts.home, "run")],
  });
}

/**
 * The steps of a plan written as text: its numbered or bulleted items when it has some, else
 * its non-empty lines.
 */
export function planSteps(text: string): string[] {
  const lines = text.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  const items = lines.flatMap((line) => {
    const item = line.match(/^(?:\d+[.)]|[-*•]|\[[ xX]\])\s+(.+)$/)?.[1];
    return item === undefined ? [] : [item.replace(/^\[[ xX]\]\s+/, "")];
  });
  return items.length > 0 ? items : lines;
}

/** The steps of the plan (`update_plan`) or todo list the session holds, the plan first. */
function listSteps(state: Map<string, unknown>): string[] {
  const plan = state.get(PLAN_STATE_KEY);
  if (Array.isArray(plan) && plan.length > 0) return (plan as PlanStep[]).map((s) => s.step);
  const todos = state.get(TODO_STATE_KEY);
  return Array.isArray(todos) ? (todos as TodoItem[]).map((t) => t.content) : [];
}

function listsOf(state: Map<string, unknown>): string {
  return JSON.stringify([state.get(PLAN_STATE_KEY), state.get(TODO_STATE_KEY)]);
}

/** The text of the last assistant message of the last turn (after the last user message). */
function lastAnswer(messages: readonly Message[]): string {
  const prompt = messages.findLastIndex((m) => m.role === "user");
  const last = messages.slice(prompt + 1).findLast((m) => m.role === "assistant");
  return last ? textOf(last.blocks) : "";
}
