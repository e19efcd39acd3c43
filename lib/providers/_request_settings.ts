/**
 * The harness's request settings for one request, after the user's choices and the endpoint's
 * limits: the user's effort, thinking mode and output limit win over the harness's defaults, and
 * the provider's `compat` takes away what the endpoint cannot take.
 */
import type { ModelRequest } from "../model/message.ts";
import {
  type Effort,
  settingsForModel,
  type ThinkingMode,
  type WireApi,
  type WireRequestSpec,
} from "../model/request_settings.ts";
import type { Compat } from "./types.ts";

type Json = Record<string, unknown>;

/** Settings for one request, ready for an adapter to put on the wire. */
export interface RequestPlan {
  spec: WireRequestSpec;
  /** The effort asked for (the user's, else the harness's default), before `effortMap`. */
  effort?: Effort;
  /** The effort as the wire gets it, after the harness's `effortMap`. */
  wireEffort?: string;
  /** Messages: how thinking is requested; "off" sends none. */
  thinking: ThinkingMode;
  /**
   * The output limit: the user's (`model_max_output_tokens`), else the harness's, capped at the
   * model's maximum output when the catalog knows it.
   */
  maxOutputTokens?: number;
  /** Responses: the user's summary setting, else the harness's. */
  reasoningSummary?: WireRequestSpec["reasoningSummary"];
  /** Harness headers, placeholders filled in; vendor identifiers only with `vendor`. */
  headers: Record<string, string>;
  /** Fills the placeholders of `REQUEST_PLACEHOLDERS` in a text. */
  fill: (text: string) => string;
  /** The user asked for the vendor's client identifiers (`vendor_client_headers`). */
  vendor: boolean;
}

const NODE_OS: Record<string, string> = { windows: "win32" };
const NODE_ARCH: Record<string, string> = { x86_64: "x64", aarch64: "arm64" };

/** Fills the placeholders of `REQUEST_PLACEHOLDERS` in a text. */
function placeholderFiller(request: ModelRequest, spec: WireRequestSpec) {
  const values: Record<string, string> = {
    session_id: request.sessionId ?? "",
    session_hash: request.sessionHash ?? "",
    model: request.model,
    version: spec.clientVersion ?? request.appVersion ?? "",
    os: NODE_OS[Deno.build.os] ?? Deno.build.os,
    arch: NODE_ARCH[Deno.build.arch] ?? Deno.build.arch,
  };
  return (text: string) =>
    text.replace(/\{([a-z_]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** Plans `request` for `wire`; see the module comment for who wins. */
export function planRequest(request: ModelRequest, wire: WireApi, compat: Compat): RequestPlan {
  const spec = settingsForModel(request.settings, wire, request.model);
  const asked = request.reasoningEffort ?? spec.effort;
  const effort = asked === "none" ? undefined : asked;
  // Where the harness asks for no thinking, an effort the user sets turns budget thinking on.
  const fallback = request.reasoningEffort && effort ? "budget" : "off";
  const harnessMode = spec.thinking === "off" ? undefined : spec.thinking;
  let thinking: ThinkingMode = request.thinking ?? harnessMode ?? fallback;
  if (asked === "none") thinking = "off";
  if (compat.thinking && thinking !== "off") thinking = compat.thinking;
  const fill = placeholderFiller(request, spec);
  const vendor = request.vendorClientHeaders === true;
  const headers: Record<string, string> = {};
  if (spec.betas?.length) headers["anthropic-beta"] = spec.betas.join(",");
  const named = { ...spec.headers, ...(vendor ? spec.vendorHeaders : {}) };
  for (const [name, value] of Object.entries(named)) headers[name.toLowerCase()] = fill(value);
  const userAgent = (vendor ? spec.vendorUserAgent : undefined) ?? spec.userAgent;
  if (userAgent) headers["user-agent"] = fill(userAgent);
  return {
    fill,
    vendor,
    spec,
    effort,
    wireEffort: effort ? spec.effortMap?.[effort] ?? effort : undefined,
    thinking,
    maxOutputTokens: request.maxOutputTokens ?? capped(spec.maxOutputTokens, request.maxOutputCap),
    reasoningSummary: request.reasoningSummary ?? spec.reasoningSummary,
    headers,
  };
}

/** The harness's output limit, never above the model's own. */
function capped(limit: number | undefined, cap: number | undefined): number | undefined {
  return limit !== undefined && cap !== undefined ? Math.min(limit, cap) : limit;
}

/**
 * Adds the keys every wire shares (tool choice, parallel calls, store, prompt cache key and the
 * harness's extra body keys), then removes what `compat.dropKeys` names. `thinkingOn` decides
 * whether `thinkingBody` is sent.
 */
export function finishBody(
  body: Json,
  plan: RequestPlan,
  opts: { compat: Compat; sessionId?: string; thinkingOn: boolean; hasTools: boolean },
): Json {
  const { spec } = plan;
  if (opts.hasTools && spec.toolChoice !== undefined) body.tool_choice = spec.toolChoice;
  if (opts.hasTools && spec.parallelToolCalls !== undefined) {
    body.parallel_tool_calls = spec.parallelToolCalls;
  }
  if (spec.store !== undefined) body.store = spec.store;
  if (spec.promptCacheKey && opts.sessionId) body.prompt_cache_key = plan.fill(spec.promptCacheKey);
  const extra = {
    ...spec.body,
    ...(plan.vendor ? spec.vendorBody : {}),
    ...(opts.thinkingOn ? spec.thinkingBody : {}),
  };
  for (const [key, value] of Object.entries(extra)) body[key] = fillStrings(value, plan.fill);
  for (const key of opts.compat.dropKeys ?? []) delete body[key];
  return body;
}

/** `value` with the placeholders filled in every string it holds. */
function fillStrings(value: unknown, fill: (text: string) => string): unknown {
  if (typeof value === "string") return fill(value);
  if (Array.isArray(value)) return value.map((v) => fillStrings(v, fill));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillStrings(v, fill)]));
  }
  return value;
}
