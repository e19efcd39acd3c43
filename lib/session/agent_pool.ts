/**
 * The session's persistent sub-agents: each one a conversation of its own that runs in the
 * background, one step per message it is sent, with the parent's sandbox, approvals and tools
 * (`makeSubagentStep`). They live as long as the session (disposing the pool aborts them) and
 * can be messaged, interrupted, waited for, closed and opened again.
 */
import type { LoopState } from "../loop/agent_loop.ts";
import { ToolError } from "../errors.ts";
import type { SubagentFacts } from "../hooks/session_events.ts";
import type { AgentInfo, AgentPool as AgentPoolSeam } from "../tools/types.ts";
import type { SubagentStep } from "./subagent.ts";

/** What a pool needs from the session, read when an agent starts or takes its next step. */
export interface AgentPoolDriver {
  /** The step of the session's latest turn (its harness, hooks, sandbox). */
  step: SubagentStep;
  /** A fresh conversation for `prompt`, after the SubagentStart hooks' context. */
  open(agent: SubagentFacts, prompt: string): Promise<LoopState>;
  /** Called when an agent's state changes (a saved trajectory, a status line). */
  changed?(agent: PooledAgent): void;
}

/** One persistent sub-agent. */
export interface PooledAgent {
  facts: SubagentFacts;
  name: string;
  state: LoopState;
  callId: string | undefined;
  status: string;
  lastText: string;
  queue: string[];
  /** Its last step ended and the model has not read the result yet. */
  unreported: boolean;
  controller?: AbortController;
  running?: Promise<void>;
}

/** The session's sub-agents. */
export class AgentPool implements AgentPoolSeam, AsyncDisposable {
  readonly #agents = new Map<string, PooledAgent>();
  readonly #waiters = new Set<() => void>();
  #spawned = 0;
  #driver: AgentPoolDriver;

  constructor(driver: AgentPoolDriver) {
    this.#driver = driver;
  }

  /** Uses the latest turn's step from now on (agents already running keep theirs). */
  drive(driver: AgentPoolDriver): void {
    this.#driver = driver;
  }

  /** Every agent, closed ones included (for a trajectory). */
  agents(): PooledAgent[] {
    return [...this.#agents.values()];
  }

  async spawn(
    req: { prompt: string; name?: string; agentType?: string; callId?: string },
  ): Promise<AgentInfo> {
    const facts: SubagentFacts = {
      agentId: `agent-${++this.#spawned}`,
      agentType: req.agentType ?? "general-purpose",
    };
    const name = req.name?.trim() || facts.agentId;
    if (req.name && this.#find(name)) {
      throw new ToolError(`An agent named "${name}" exists already`, "Give it another name");
    }
    const state = await this.#driver.open(facts, req.prompt);
    const agent: PooledAgent = {
      facts,
      name,
      state,
      callId: req.callId,
      status: "running",
      lastText: "",
      queue: [],
      unreported: false,
    };
    this.#agents.set(facts.agentId, agent);
    this.#start(agent, false);
    return infoOf(agent);
  }

  send(target: string, message: string, opts: { interrupt?: boolean } = {}): Promise<AgentInfo> {
    return Promise.resolve().then(() => this.#send(target, message, opts));
  }

  #send(target: string, message: string, opts: { interrupt?: boolean }): AgentInfo {
    const agent = this.#open(target);
    if (!message.trim()) throw new ToolError("The message is empty", "Send the agent some text");
    agent.queue.push(message);
    if (opts.interrupt) agent.controller?.abort(new DOMException("Interrupted", "AbortError"));
    if (!agent.running) this.#start(agent, true);
    return infoOf(agent);
  }

  interrupt(target: string): Promise<AgentInfo> {
    return Promise.resolve().then(() => {
      const agent = this.#open(target);
      agent.controller?.abort(new DOMException("Interrupted", "AbortError"));
      return infoOf(agent);
    });
  }

  async wait(
    targets: string[],
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<{ timedOut: boolean; agents: AgentInfo[] }> {
    const chosen = targets.length
      ? targets.map((t) => this.#get(t))
      : [...this.#agents.values()].filter((a) => a.status !== "closed");
    if (!chosen.length) {
      throw new ToolError("There are no agents to wait for", "Spawn an agent first");
    }
    const done = () => chosen.some((a) => !a.running);
    const timedOut = !done() && !await this.#until(done, timeoutMs, signal);
    return { timedOut, agents: chosen.map(reported) };
  }

  async close(target: string): Promise<AgentInfo> {
    const agent = this.#get(target);
    const before = reported(agent);
    agent.queue.length = 0;
    agent.controller?.abort(new DOMException("Closed", "AbortError"));
    await agent.running;
    agent.status = "closed";
    this.#changed(agent);
    return before;
  }

  resume(target: string): Promise<AgentInfo> {
    return Promise.resolve().then(() => {
      const agent = this.#get(target);
      if (agent.status === "closed") agent.status = agent.lastText ? "completed" : "interrupted";
      this.#changed(agent);
      return infoOf(agent);
    });
  }

  list(): Promise<AgentInfo[]> {
    return Promise.resolve([...this.#agents.values()].map(reported));
  }

  /**
   * Waits until no open agent is running, then returns a notice of the results the model has
   * not read (marking them read), or undefined when there are none: a turn that ends while
   * background agents work goes on with their results, as the vendors notify the parent.
   */
  async settle(signal: AbortSignal): Promise<string | undefined> {
    const idle = () => [...this.#agents.values()].every((a) => !a.running);
    if (!idle()) await this.#until(idle, Infinity, signal);
    if (signal.aborted) return undefined;
    const fresh = [...this.#agents.values()].filter((a) => a.unreported && a.status !== "closed");
    if (!fresh.length) return undefined;
    const blocks = fresh.map((a) =>
      `<agent-notification>\n${noticeOf(reported(a))}\n</agent-notification>`
    );
    return blocks.join("\n");
  }

  async [Symbol.asyncDispose](): Promise<void> {
    const running = [...this.#agents.values()].map((agent) => {
      agent.queue.length = 0;
      agent.controller?.abort(new DOMException("Session ended", "AbortError"));
      return agent.running;
    });
    await Promise.allSettled(running);
  }

  /** Runs the agent's steps in the background until its queue is empty. */
  #start(agent: PooledAgent, fromQueue: boolean): void {
    const step = this.#driver.step;
    agent.running = (async () => {
      let first = !fromQueue;
      while (first || agent.queue.length) {
        if (!first) {
          const text = agent.queue.shift() as string;
          agent.state.messages.push({ role: "user", blocks: [{ type: "text", text }] });
        }
        first = false;
        agent.status = "running";
        agent.controller = new AbortController();
        const result = await step(agent.state, {
          agent: agent.facts,
          label: agent.name,
          callId: agent.callId,
          signal: agent.controller.signal,
        }).catch((error) => ({
          status: "failed" as const,
          finalText: String(error),
          toolCalls: 0,
        }));
        agent.status = statusOf(result.status);
        agent.unreported = true;
        if (result.finalText || agent.status !== "interrupted") agent.lastText = result.finalText;
        this.#changed(agent);
      }
    })().finally(() => {
      agent.running = undefined;
      agent.controller = undefined;
      for (const wake of [...this.#waiters]) wake();
    });
  }

  #changed(agent: PooledAgent): void {
    try {
      this.#driver.changed?.(agent);
    } catch { /* a failing observer must not stop the agent */ }
  }

  /** Resolves true once `done()` holds, false when `timeoutMs` passes or `signal` aborts. */
  #until(done: () => boolean, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (value: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.#waiters.delete(check);
        resolve(value);
      };
      const check = () => done() && finish(true);
      const onAbort = () => finish(false);
      // No timer at all for a wait without end (setTimeout takes at most 2^31-1 ms).
      const timer = Number.isFinite(timeoutMs)
        ? setTimeout(() => finish(false), Math.max(0, timeoutMs))
        : undefined;
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiters.add(check);
    });
  }

  #find(target: string): PooledAgent | undefined {
    return this.#agents.get(target) ??
      [...this.#agents.values()].find((a) => a.name === target || `/root/${a.name}` === target);
  }

  #get(target: string): PooledAgent {
    const agent = this.#find(target);
    if (agent) return agent;
    const known = [...this.#agents.values()].map((a) => a.facts.agentId).join(", ") || "none";
    throw new ToolError(
      `There is no agent "${target}"`,
      `Use one of the ids spawn returned (open agents: ${known})`,
    );
  }

  #open(target: string): PooledAgent {
    const agent = this.#get(target);
    if (agent.status === "closed") {
      throw new ToolError(
        `Agent ${agent.facts.agentId} is closed`,
        "Resume it first, or spawn one",
      );
    }
    return agent;
  }
}

/** The status an outcome leaves an agent in. */
function statusOf(outcome: string): string {
  if (outcome === "completed") return "completed";
  if (outcome === "aborted") return "interrupted";
  return "failed";
}

/** An agent's facts, marking its latest result read by the model. */
function reported(agent: PooledAgent): AgentInfo {
  if (!agent.running) agent.unreported = false;
  return infoOf(agent);
}

/** A background agent's result, in a notice after the parent's turn. */
function noticeOf(a: AgentInfo): string {
  const head = `Background agent ${a.id} (${a.name}) finished its task: ${a.status}.`;
  return a.lastText ? `${head}\n\n${a.lastText}` : head;
}

/** What the model reads of an agent. */
function infoOf(agent: PooledAgent): AgentInfo {
  return {
    id: agent.facts.agentId,
    name: agent.name,
    agentType: agent.facts.agentType,
    status: agent.running && agent.status !== "closed" ? "running" : agent.status,
    lastText: agent.lastText,
    pending: agent.queue.length,
  };
}
