/**
 * What a harness sends on a wire API besides the conversation: its vendor's output limit,
 * thinking and reasoning settings, cache and tool flags, extra body keys and headers. Harness
 * specs hold these as data (`[request.<wire>]` in `harness.toml`); provider adapters apply them.
 */

/** The wire APIs we speak. */
export type WireApi = "chat" | "responses" | "messages" | "gemini";

/** A reasoning effort a user can ask for. */
export type Effort = "minimal" | "low" | "medium" | "high" | "xhigh";

/** How thinking is requested on Messages: adaptive, a token budget, or not at all. */
export type ThinkingMode = "adaptive" | "budget" | "off";

/** One wire's settings. Every key is optional: an unset key is not sent. */
export interface WireRequestSpec {
  /** The output limit (Messages `max_tokens`, Chat `max_tokens`, Responses `max_output_tokens`). */
  maxOutputTokens?: number;
  /**
   * Chat: a user message's text blocks go as separate parts instead of one joined string, and a
   * tool result's text as a list of one text part.
   */
  textParts?: boolean;
  /** Chat: an assistant reply's text and its tool calls go as two assistant messages. */
  splitAssistant?: boolean;
  /** Chat: the key the output limit goes under. */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** Messages: how thinking is requested when it is on. */
  thinking?: ThinkingMode;
  /** Messages: `thinking.display`. */
  thinkingDisplay?: "omitted" | "summarized";
  /** Messages budget thinking: a budget per effort, or the output limit less one token. */
  thinkingBudget?: "by_effort" | "max";
  /** The effort sent when the user sets none; "none" sends none. */
  effort?: Effort | "none";
  /** The user's effort → the value the wire gets (Claude Code: minimal → "low", xhigh → "high"). */
  effortMap?: Partial<Record<Effort, string>>;
  /**
   * Responses and Chat: false for models that take no reasoning settings: no effort, no
   * `reasoning`, no `reasoning.*` entries in `include`, no `thinkingBody`.
   */
  reasoning?: boolean;
  /** Responses: `reasoning.summary`; "none" leaves the summary out. */
  reasoningSummary?: "auto" | "concise" | "detailed" | "none";
  /** Responses: `include`. */
  include?: string[];
  /** Responses and Chat: `store`. */
  store?: boolean;
  toolChoice?: unknown;
  parallelToolCalls?: boolean;
  /** `prompt_cache_key`; `{session_id}` is filled in. */
  promptCacheKey?: string;
  /**
   * Extra keys on every tool declaration (Messages and Responses: the tool object; Chat: its
   * `function`), such as pi's `eager_input_streaming` or `strict`.
   */
  toolFields?: Record<string, unknown>;
  /**
   * Cache breakpoints besides the system parts' own: the last tool (Messages), the last block
   * (Messages, and Chat where the provider takes cache markers).
   */
  cache?: Array<"last_tool" | "last_message">;
  /** Messages: the `anthropic-beta` header's list. */
  betas?: string[];
  /**
   * Extra request headers, sent always: session and cache-affinity ids. Placeholders are filled
   * in here and in every string below (`REQUEST_PLACEHOLDERS`).
   */
  headers?: Record<string, string>;
  /** The `User-Agent` header. */
  userAgent?: string;
  /** Extra top-level body keys, sent as they are. */
  body?: Record<string, unknown>;
  /** The vendor client's version, `{version}` (default: ours). */
  clientVersion?: string;
  /**
   * The vendor's client identifiers, sent only when the user sets `vendor_client_headers`:
   * headers over `headers`, a user agent over `userAgent`, top-level body keys over `body`.
   */
  vendorHeaders?: Record<string, string>;
  vendorUserAgent?: string;
  vendorBody?: Record<string, unknown>;
  /** Extra top-level body keys sent only while thinking (or reasoning) is on. */
  thinkingBody?: Record<string, unknown>;
  /**
   * Responses: the tools go in an `input[]` item of this type (Codex code mode's
   * `additional_tools`, grouped by namespace in `toolNamespaces` order), not in `tools`.
   */
  toolsItem?: "additional_tools";
  /** Responses: the namespaces of `toolsItem`, in order, each with its description. */
  toolNamespaces?: Array<{ name: string; description: string }>;
  /** Responses: `reasoning.context` ("all_turns"). */
  reasoningContext?: string;
  /** Responses: `text.verbosity` when the user sets none. */
  verbosity?: "low" | "medium" | "high";
  /** Responses: the hosted `web_search` tool. */
  hostedWebSearch?: boolean;
  /** Gemini: `generationConfig.temperature`. */
  temperature?: number;
  /** Gemini: `generationConfig.topP`. */
  topP?: number;
  /** Gemini: `generationConfig.topK`. */
  topK?: number;
  /** Gemini: `thinkingConfig.thinkingLevel` when the user sets no effort ("HIGH", "LOW"). */
  thinkingLevel?: string;
  /** Gemini: `thinkingConfig.includeThoughts`: thought summaries come back as thought parts. */
  includeThoughts?: boolean;
}

/** The placeholders request settings' strings may hold, and what each becomes. */
export const REQUEST_PLACEHOLDERS = {
  session_id: "the session id",
  session_hash: "64 hex digits: the SHA-256 of the session id",
  model: "the model asked for",
  version: "client_version, else interpreter's own version",
  os: 'the platform as Node names it ("linux", "darwin", "win32")',
  arch: 'the CPU as Node names it ("x64", "arm64")',
} as const;

/** A header value holds no line break or other control character but tab. */
export function isHeaderValue(value: string): boolean {
  return ![...value].some((c) => c.charCodeAt(0) < 32 ? c !== "\t" : c.charCodeAt(0) === 127);
}

/** A rule that changes some settings for the models it matches (case-insensitive globs). */
export interface ModelRule {
  models: RegExp[];
  /** The globs as written, for display. */
  patterns: string[];
  set: WireRequestSpec;
}

/** A wire's settings and its model rules, applied in order, later rules winning. */
export interface WireRequestSettings {
  base: WireRequestSpec;
  rules: ModelRule[];
}

/** A harness's settings per wire API. */
export type RequestSpecs = Partial<Record<WireApi, WireRequestSettings>>;

/** The settings that apply to `model` on `wire`: the base, then each matching rule over it. */
export function settingsForModel(
  specs: RequestSpecs | undefined,
  wire: WireApi,
  model: string,
): WireRequestSpec {
  const spec = specs?.[wire];
  if (!spec) return {};
  let out = { ...spec.base };
  for (const rule of spec.rules) {
    if (!rule.models.some((m) => m.test(model))) continue;
    // A rule's headers join the headers before it; every other key replaces.
    const headers = { ...out.headers, ...rule.set.headers };
    const vendorHeaders = { ...out.vendorHeaders, ...rule.set.vendorHeaders };
    out = { ...out, ...rule.set };
    if (Object.keys(headers).length) out.headers = headers;
    if (Object.keys(vendorHeaders).length) out.vendorHeaders = vendorHeaders;
  }
  return out;
}
