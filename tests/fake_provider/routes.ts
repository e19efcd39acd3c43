/**
 * Where a request's reply comes from. By default one script is consumed in order, one turn per
 * request. With routes, each request is served statelessly, so that many conversations (several
 * `interpreter exec` processes, say) can run in parallel against one server: the request picks
 * the first route whose model it names and whose tools it advertises, and the turn it gets is
 * the number of assistant turns already in its history (plus, on Responses, the turns behind its
 * `previous_response_id`). Generated call ids come from counters shared by all conversations,
 * so they stay unique and the invariants' id ledger still holds; a script that sets a call's
 * `id` itself gives every conversation that reaches that turn the same id.
 */
import type { RequestView } from "./request_view.ts";
import { type ScriptTurn, validateScript } from "./script.ts";

/** One scripted model: requests that match it are answered from its script. */
export interface FakeRoute {
  /** The request's `model` must equal this. */
  model: string;
  /** The request must advertise tools with all of these names (they tell harnesses apart). */
  tools_include?: string[];
  /** The system prompt (system or developer messages, `instructions`, `system`) contains this. */
  system_contains?: string;
  /** Turn N answers a request whose history holds N assistant turns. */
  script: ScriptTurn[];
}

/** The turn a request gets, or why it gets none. */
export type Pick =
  | {
    turn: ScriptTurn;
    /** Index of the turn in its script. */
    index: number;
    /** Index of the route, when routes are served. */
    route?: number;
    /** Marks the turn served; `responseId` is the Responses id the reply is sent under. */
    commit(responseId?: string): void;
  }
  | { status: number; problem: string };

/** Hands out turns: one script in order, or routes by request. */
export interface TurnSource {
  pick(view: RequestView, requestNumber: number): Pick;
  /** Turns not yet served: see `scriptSource` and `routeSource`. */
  remaining(): number;
  /** The models `GET /v1/models` lists when no `models` option is given. */
  models(): string[];
}

/** One script, consumed in order; `remaining()` counts the turns not yet consumed. */
export function scriptSource(turns: unknown[]): TurnSource {
  const script = validateScript(turns);
  let next = 0;
  return {
    pick(_view, requestNumber) {
      const turn = script[next];
      if (turn === undefined) {
        return {
          status: 500,
          problem: `The script is exhausted: request ${requestNumber} arrived after all ` +
            `${script.length} turns`,
        };
      }
      return { turn, index: next, commit: () => next++ };
    },
    remaining: () => script.length - next,
    models: () => ["fake-model"],
  };
}

/**
 * Routes, served statelessly. A turn is answered every time a request reaches it: a client that
 * retries a scripted error gets the same error again. `remaining()` counts route turns never
 * served by any request (each distinct route and turn index counts once, however many
 * conversations reached it), so it is 0 once every turn of every route was used at least once.
 */
export function routeSource(routes: FakeRoute[]): TurnSource {
  const checked = routes.map((route, i) => {
    if (typeof route.model !== "string" || route.model === "") {
      throw new TypeError(`Invalid route ${i + 1}: "model" must be a non-empty string`);
    }
    return { ...route, script: validateScript(route.script, `route ${i + 1} (${route.model})`) };
  });
  const served = new Set<string>();
  /** Responses id → assistant turns in the conversation up to and including that response. */
  const responses = new Map<string, number>();
  const total = checked.reduce((sum, route) => sum + route.script.length, 0);
  return {
    pick(view) {
      const at = checked.findIndex((route) => matches(route, view));
      if (at < 0) {
        return { status: 400, problem: `No route for ${describe(view)}; routes: ${list(checked)}` };
      }
      const route = checked[at];
      const earlier = view.previousResponseId === undefined
        ? 0
        : responses.get(view.previousResponseId) ?? 0;
      const index = earlier +
        view.history.filter((entry) => entry.kind === "assistant").length;
      const turn = route.script[index];
      if (turn === undefined) {
        return {
          status: 500,
          problem: `The script of route ${at + 1} (model "${route.model}") is exhausted: the ` +
            `request's history holds ${index} assistant turns and the script has ` +
            `${route.script.length}`,
        };
      }
      return {
        turn,
        index,
        route: at,
        commit(responseId) {
          served.add(`${at}:${index}`);
          if (responseId !== undefined) responses.set(responseId, index + 1);
        },
      };
    },
    remaining: () => total - served.size,
    models: () => [...new Set(checked.map((route) => route.model))],
  };
}

function matches(route: FakeRoute, view: RequestView): boolean {
  if (view.model !== route.model) return false;
  if (!(route.tools_include ?? []).every((name) => view.toolNames.includes(name))) return false;
  return route.system_contains === undefined || view.system.includes(route.system_contains);
}

function describe(view: RequestView): string {
  return `model ${JSON.stringify(view.model)} with tools ${JSON.stringify(view.toolNames)}`;
}

function list(routes: FakeRoute[]): string {
  return routes.map((route) => {
    const tools = route.tools_include?.length ? ` [${route.tools_include.join(", ")}]` : "";
    const system = route.system_contains === undefined
      ? ""
      : ` (system contains ${JSON.stringify(route.system_contains)})`;
    return `"${route.model}"${tools}${system}`;
  }).join(", ");
}
