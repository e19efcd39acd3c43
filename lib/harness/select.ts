import type { WireApi } from "../providers/types.ts";
import { globRegExp } from "./_glob.ts";
import type { HarnessMatch } from "./types.ts";

/** A harness folder that can be chosen automatically, with its spec's `[match]` block. */
export interface HarnessCandidate {
  id: string;
  match: HarnessMatch;
  /** From the user's harness folder; a user harness wins a priority tie. */
  user: boolean;
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
  /** Every harness folder that exists, user ones included (see `loadHarnessCandidates`). */
  candidates: readonly HarnessCandidate[];
}

/** Harness used when no candidate's `[match]` matches. */
export const FALLBACK_HARNESS = "native";

/**
 * The harness id for a session: the configured one when set, else the matching candidate with
 * the highest priority (a user harness before a built-in one, then by id), else FALLBACK_HARNESS.
 */
export function chooseHarness(input: HarnessChoiceInput): string {
  if (input.configured) return input.configured;
  const matching = input.candidates.filter((c) => matches(c.match, input));
  matching.sort((a, b) =>
    b.match.priority - a.match.priority || Number(b.user) - Number(a.user) ||
    a.id.localeCompare(b.id)
  );
  return matching[0]?.id ?? FALLBACK_HARNESS;
}

function matches(match: HarnessMatch, input: HarnessChoiceInput): boolean {
  const any = (patterns: string[], ...texts: string[]) =>
    patterns.some((p) => {
      const re = globRegExp(p);
      return texts.some((t) => re.test(t));
    });
  return match.wireApis.includes(input.wireApi) || any(match.models, input.model) ||
    any(match.providers, input.providerId, input.providerName, ...input.modelVendors ?? []) ||
    any(match.baseUrls, input.baseUrl);
}
