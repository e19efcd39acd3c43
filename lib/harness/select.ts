import type { WireApi } from "../providers/types.ts";
import { globRegExp } from "./_glob.ts";
import type { HarnessMatch } from "./types.ts";

/** A harness folder that can be chosen automatically, with its spec's `[match]` block. */
export interface HarnessCandidate {
  id: string;
  match: HarnessMatch;
  /** From the user's harness folder; a user harness wins a priority tie. */
  user: boolean;
  /** The wire APIs the harness speaks (its `wire_apis`); it is never chosen on another one. */
  wireApis?: readonly string[];
}

/** What automatic harness choice looks at. */
export interface HarnessChoiceInput {
  /** The `harness` config value or `--harness` flag; when set it always wins. */
  configured?: string;
  model: string;
  providerId: string;
  providerName: string;
  baseUrl: string;
  wireApi: WireApi;
  /**
   * The providers (id and name) that list the model in the model catalog: who makes or serves
   * it, so `providers` patterns also claim the model when another provider serves it.
   */
  modelVendors?: string[];
  /**
   * The families the model's server reports (Ollama's `details.family` and `families`, LM
   * Studio's `architecture`: "qwen2", "llama", "deepseek2"): when no candidate matches the
   * model's name, each is tried in its place, in order.
   */
  modelFamilies?: string[];
  /** Every harness folder that exists, user ones included (see `loadHarnessCandidates`). */
  candidates: readonly HarnessCandidate[];
}

/** Harness used when no candidate's `[match]` matches. */
export const FALLBACK_HARNESS = "native";

/**
 * The harness id for a session: the configured one when set, else the matching candidate with
 * the highest priority (a user harness before a built-in one, then by id) among those that speak
 * the session's wire, else the same for each family the server reports in place of the model's
 * name, else FALLBACK_HARNESS.
 */
export function chooseHarness(input: HarnessChoiceInput): string {
  return input.configured || (matchedHarness(input)?.id ?? FALLBACK_HARNESS);
}

/**
 * The candidate `[match]` picks for `input` (its `configured` aside), with the name it matched
 * (the model's or a reported family's) and whether by the wire alone; undefined when none does.
 */
export function matchedHarness(
  input: HarnessChoiceInput,
): { id: string; model: string; byWire: boolean } | undefined {
  // A match by name, provider, base URL or family comes before a match by the wire alone, so
  // GLM on the Messages wire gets zcode and DeepSeek claude-code-bare, not claude-code.
  for (const byWire of [false, true]) {
    for (const model of [input.model, ...input.modelFamilies ?? []]) {
      const id = bestMatch({ ...input, model }, byWire);
      if (id) return { id, model, byWire };
    }
  }
  return undefined;
}

function bestMatch(input: HarnessChoiceInput, byWire: boolean): string | undefined {
  const matching = input.candidates.filter((c) =>
    (c.wireApis === undefined || c.wireApis.includes(input.wireApi)) &&
    matches(c.match, input, byWire)
  );
  matching.sort((a, b) =>
    b.match.priority - a.match.priority || Number(b.user) - Number(a.user) ||
    a.id.localeCompare(b.id)
  );
  return matching[0]?.id;
}

function matches(match: HarnessMatch, input: HarnessChoiceInput, byWire: boolean): boolean {
  const any = (patterns: string[], ...texts: string[]) =>
    patterns.some((p) => {
      const re = globRegExp(p);
      return texts.some((t) => re.test(t));
    });
  if (byWire) return match.wireApis.includes(input.wireApi);
  return any(match.models, input.model) ||
    any(match.providers, input.providerId, input.providerName, ...input.modelVendors ?? []) ||
    any(match.baseUrls, input.baseUrl);
}

/** The largest context window (tokens) for which the lean surface is chosen by itself. */
export const LEAN_MAX_WINDOW = 16_384;
/** The largest parameter count for which the lean surface is chosen by itself. */
const LEAN_MAX_PARAMETERS = 4e9;

/** What the choice of the lean surface looks at. */
export interface LeanChoiceInput {
  /** The `lean` config value: true always, false never; unset decides by the model's size. */
  configured?: boolean;
  /** The session's context window in tokens. */
  contextWindow?: number;
  /** The parameter count the server reports, and its own text for it ("0.6B"). */
  parameters?: { count: number; text: string };
}

/**
 * Why the session uses its harness's lean surface ("lean = true", "0.6B parameters",
 * "8,192-token window"), or undefined for the full surface.
 */
export function chooseLean(input: LeanChoiceInput): string | undefined {
  if (input.configured !== undefined) return input.configured ? "lean = true" : undefined;
  const reasons: string[] = [];
  const { parameters, contextWindow } = input;
  if (parameters && parameters.count <= LEAN_MAX_PARAMETERS) {
    reasons.push(`${parameters.text} parameters`);
  }
  if (contextWindow !== undefined && contextWindow <= LEAN_MAX_WINDOW) {
    reasons.push(`${contextWindow.toLocaleString("en-US")}-token window`);
  }
  return reasons.length > 0 ? reasons.join(", ") : undefined;
}
