/**
 * The harness choice with its reason, as the banner and `/harness` show it, and
 * `[harness_routes]`: model names or globs mapped to a harness id (written by hand or by
 * `eval report --write-routes`), consulted after a configured harness and before `[match]`.
 * Loaded when a session starts (kept out of the static start-up graph).
 */
import { ConfigError, UserError } from "../errors.ts";
import { globProblem, globRegExp } from "./_glob.ts";
import { FALLBACK_HARNESS, type HarnessChoiceInput, matchedHarness } from "./select.ts";

/** A harness and why it was chosen. */
export interface HarnessChoice {
  id: string;
  reason: string;
}

/** The route for `model`: its exact name first, then the first glob matching, in table order. */
export function routeFor(
  routes: Record<string, string>,
  model: string,
): { pattern: string; id: string } | undefined {
  for (const pattern of Object.keys(routes)) {
    const problem = globProblem(pattern);
    if (problem) {
      throw new ConfigError(`[harness_routes] in config.toml: ${problem}`, {
        hint: 'Write a model name or a glob with "*" only, e.g. "qwen3-coder*" = "qwen-code"',
      });
    }
  }
  if (Object.hasOwn(routes, model)) return { pattern: model, id: routes[model] };
  const pattern = Object.keys(routes).find((p) => globRegExp(p).test(model));
  return pattern === undefined ? undefined : { pattern, id: routes[pattern] };
}

/**
 * `chooseHarness` (lib/harness/select.ts) with `[harness_routes]` and the reason: the configured
 * harness, else a route, else `[match]` by name, provider or base URL, by a family the server
 * reports, by the wire alone, else the default.
 */
export function chooseHarnessWhy(
  input: HarnessChoiceInput & { routes?: Record<string, string> },
): HarnessChoice {
  if (input.configured) return { id: input.configured, reason: "configured (harness)" };
  const route = routeFor(input.routes ?? {}, input.model);
  if (route) {
    return { id: route.id, reason: `route "${route.pattern}" in [harness_routes] (config.toml)` };
  }
  const matched = matchedHarness(input);
  if (!matched) return { id: FALLBACK_HARNESS, reason: "default (nothing else matched)" };
  const { id, model, byWire } = matched;
  const by = byWire ? `wire ${input.wireApi}` : model === input.model ? "" : `family ${model}`;
  return { id, reason: `[match] of ${id}${by && ` (reported ${by})`}` };
}

/**
 * `error` from loading the chosen harness, saying which route named it when a route did (an
 * unknown harness id in `[harness_routes]`); other errors pass through as they are.
 */
export function routeLoadError(error: unknown, choice: HarnessChoice): unknown {
  if (!(error instanceof UserError) || !choice.reason.startsWith("route ")) return error;
  return new ConfigError(`${error.message}, named by ${choice.reason}`, {
    hint: `${error.hint ?? ""}${error.hint ? "; " : ""}fix or remove that line of [harness_routes]`,
    cause: error,
  });
}
