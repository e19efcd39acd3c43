import type { WireApi } from "../providers/types.ts";

/** What automatic harness choice looks at. */
export interface HarnessChoiceInput {
  /** The `harness` config value or `--harness` flag; when set it always wins. */
  configured?: string;
  model: string;
  providerId: string;
  providerName: string;
  baseUrl: string;
  wireApi: WireApi;
  /** Ids of the harness folders that exist; a rule's result is used only when listed. */
  available: readonly string[];
}

/** Harness used when no rule matches or the matching rule's harness does not exist. */
export const FALLBACK_HARNESS = "native";

interface Rule {
  harness: string;
  matches(f: Fields): boolean;
}

interface Fields {
  model: string;
  providerId: string;
  providerName: string;
  baseUrl: string;
  wireApi: WireApi;
}

const has = (text: string, ...needles: string[]) => needles.some((n) => text.includes(n));

/** Reference §2, in order; the first matching rule wins. Matching is on lower-cased text. */
const RULES: readonly Rule[] = [
  {
    harness: "claude-code",
    matches: (f) =>
      f.wireApi === "messages" || has(f.model, "anthropic/", "claude") ||
      has(f.providerId, "anthropic") || has(f.providerName, "anthropic") ||
      has(f.baseUrl, "api.anthropic.com"),
  },
  {
    harness: "kimi-code",
    matches: (f) =>
      has(f.model, "kimi", "moonshot") || has(f.providerId, "kimi", "moonshot") ||
      has(f.providerName, "kimi", "moonshot") ||
      has(f.baseUrl, "api.kimi.com", "api.moonshot.ai", "api.moonshot.cn"),
  },
  {
    harness: "qwen-code",
    matches: (f) =>
      has(f.model, "qwen", "/qwq") || f.model.startsWith("qwq") ||
      has(f.providerId, "qwen", "dashscope") || has(f.providerName, "qwen", "dashscope") ||
      has(
        f.baseUrl,
        "dashscope.aliyuncs.com/compatible-mode",
        "dashscope-intl.aliyuncs.com/compatible-mode",
      ),
  },
  {
    harness: "claude-code-bare",
    matches: (f) =>
      has(f.model, "deepseek") || has(f.providerId, "deepseek") ||
      has(f.providerName, "deepseek") || has(f.baseUrl, "api.deepseek.com"),
  },
];

/**
 * The harness id for a session: the configured one when set, else the first rule of reference
 * §2 that matches, provided that harness exists, else FALLBACK_HARNESS.
 */
export function chooseHarness(input: HarnessChoiceInput): string {
  if (input.configured) return input.configured;
  const fields: Fields = {
    model: input.model.toLowerCase(),
    providerId: input.providerId.toLowerCase(),
    providerName: input.providerName.toLowerCase(),
    baseUrl: input.baseUrl.toLowerCase(),
    wireApi: input.wireApi,
  };
  const rule = RULES.find((r) => r.matches(fields));
  return rule && input.available.includes(rule.harness) ? rule.harness : FALLBACK_HARNESS;
}
