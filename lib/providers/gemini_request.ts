/**
 * The Gemini API's request body (`generateContent` / `streamGenerateContent`): `systemInstruction`,
 * `contents` of user and model turns with `functionCall` / `functionResponse` parts, `tools` as
 * one `functionDeclarations` list, and `generationConfig` from the wire's defaults (Gemini CLI's)
 * under the harness's `[request.gemini]` and the user's effort.
 */
import type { Block, Message, ModelRequest } from "../model/message.ts";
import { joinedSystem, textOf } from "../model/message.ts";
import {
  type Effort,
  settingsForModel,
  type WireRequestSettings,
  type WireRequestSpec,
} from "../model/request_settings.ts";
import { replayArgs } from "./_blocks.ts";
import { foldSystemMessages } from "./_fold_system.ts";
import { finishBody, planRequest, type RequestPlan } from "./_request_settings.ts";
import type { ProviderSettings } from "./types.ts";

type Json = Record<string, unknown>;
type Content = { role: "user" | "model"; parts: Json[] };

/** Gemini 2.x takes a thinking token budget; Gemini CLI gives those models 8192 tokens. */
const BUDGET_MODELS = /^(models\/)?gemini-2\./i;

/**
 * The wire's own settings, what Gemini CLI sends on its main turn: sampling at temperature 1,
 * topP 0.95, topK 64, thought summaries on, thinking level HIGH (a budget for Gemini 2.x). The
 * harness's `[request.gemini]` keys win over these, and the user's effort over both.
 */
export const GEMINI_WIRE_DEFAULTS: WireRequestSettings = {
  base: { temperature: 1, topP: 0.95, topK: 64, includeThoughts: true, thinkingLevel: "HIGH" },
  rules: [{
    models: [BUDGET_MODELS],
    patterns: ["gemini-2.*"],
    set: { thinkingLevel: undefined },
  }],
};

/** `thinkingLevel` for each effort the user can ask for. */
const LEVELS: Record<Effort, string> = {
  minimal: "MINIMAL",
  low: "LOW",
  medium: "MEDIUM",
  high: "HIGH",
  xhigh: "HIGH",
};
/** `thinkingBudget` for each effort, on Gemini 2.x; 8192 is Gemini CLI's default. */
const BUDGETS: Record<Effort, number> = {
  minimal: 1024,
  low: 4096,
  medium: 8192,
  high: 16_384,
  xhigh: 32_768,
};
const DEFAULT_BUDGET = 8192;

/** The harness's settings over the wire's defaults, for `request.model`. */
function geminiSpec(plan: RequestPlan, model: string): WireRequestSpec {
  const defaults = settingsForModel({ gemini: GEMINI_WIRE_DEFAULTS }, "gemini", model);
  const spec: WireRequestSpec = { ...defaults };
  for (const [key, value] of Object.entries(plan.spec)) {
    if (value !== undefined) (spec as Json)[key] = value;
  }
  return spec;
}

/** Builds the `streamGenerateContent` body for `request` (the model goes in the URL). */
export function toWire(request: ModelRequest, settings: Pick<ProviderSettings, "compat">): Json {
  const { compat } = settings;
  const plan = planRequest(request, "gemini", compat);
  const spec = geminiSpec(plan, request.model);
  // Gemini 3 takes a result's images inside its functionResponse, as Gemini CLI sends them there.
  const nestImages = request.model.replace(/^models\//, "").startsWith("gemini-3-");
  const body: Json = { contents: wireContents(request.messages, { nestImages }) };
  const system = joinedSystem(request.system);
  if (system) body.systemInstruction = { role: "user", parts: [{ text: system }] };
  if (request.tools.length > 0) {
    body.tools = [{
      functionDeclarations: request.tools.map((t) => ({
        name: t.name,
        description: t.description,
        parametersJsonSchema: t.parameters,
        ...spec.toolFields,
      })),
    }];
  }
  const thinkingOn = !(request.reasoningEffort === "none" || request.thinking === "off" ||
    spec.effort === "none");
  body.generationConfig = generationConfig(request, { plan, spec, thinkingOn });
  // tool_choice, parallel_tool_calls, store and prompt_cache_key have no Gemini form.
  const shared = { ...plan.spec, toolChoice: undefined, parallelToolCalls: undefined };
  Object.assign(shared, { store: undefined, promptCacheKey: undefined });
  return finishBody(body, { ...plan, spec: shared }, {
    compat,
    sessionId: request.sessionId,
    thinkingOn,
    hasTools: false,
  });
}

function generationConfig(
  request: ModelRequest,
  opts: { plan: RequestPlan; spec: WireRequestSpec; thinkingOn: boolean },
): Json {
  const { plan, spec } = opts;
  const config: Json = {};
  if (spec.temperature !== undefined) config.temperature = spec.temperature;
  if (spec.topP !== undefined) config.topP = spec.topP;
  if (spec.topK !== undefined) config.topK = spec.topK;
  if (plan.maxOutputTokens) config.maxOutputTokens = plan.maxOutputTokens;
  if (request.outputSchema) {
    config.responseMimeType = "application/json";
    config.responseJsonSchema = request.outputSchema.schema;
  }
  if (opts.thinkingOn) config.thinkingConfig = thinkingConfig(plan, spec);
  return config;
}

/** `thinkingConfig`: a level (Gemini 3), else a token budget (Gemini 2.x). */
function thinkingConfig(plan: RequestPlan, spec: WireRequestSpec): Json {
  const config: Json = {};
  if (spec.includeThoughts !== undefined) config.includeThoughts = spec.includeThoughts;
  const effort = plan.effort;
  if (spec.thinkingLevel !== undefined) {
    config.thinkingLevel = effort ? spec.effortMap?.[effort] ?? LEVELS[effort] : spec.thinkingLevel;
  } else {
    config.thinkingBudget = effort ? BUDGETS[effort] : DEFAULT_BUDGET;
  }
  return config;
}

/**
 * The history as `contents`. Turns of one role in a row are merged into one content (a run of
 * tool results is one user turn of `functionResponse` parts, as Gemini wants for parallel calls).
 * A result's images follow its `functionResponse` as `inlineData` parts, or with `nestImages`
 * (Gemini 3) go inside it as its `parts`.
 */
export function wireContents(messages: Message[], opts: { nestImages?: boolean } = {}): Content[] {
  const contents: Content[] = [];
  const push = (role: Content["role"], parts: Json[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of foldSystemMessages(messages, false)) {
    if (message.role === "user") push("user", userParts(message.blocks));
    else if (message.role === "assistant") push("model", modelParts(message.blocks));
    else {
      const text = textOf(message.blocks);
      const response = message.isError ? { error: text } : { output: text };
      const call = { id: message.callId, name: message.name, response };
      const images = imageParts(message.blocks);
      if (opts.nestImages && images.length > 0) {
        push("user", [{ functionResponse: { ...call, parts: images } }]);
      } else push("user", [{ functionResponse: call }, ...images]);
    }
  }
  return contents;
}

function userParts(blocks: Block[]): Json[] {
  return blocks.flatMap((b): Json[] => {
    if (b.type === "text") return b.text === "" ? [] : [{ text: b.text }];
    return imageParts([b]);
  });
}

function imageParts(blocks: Block[]): Json[] {
  return blocks.flatMap((b) =>
    b.type === "image" ? [{ inlineData: { mimeType: b.mime, data: b.base64 } }] : []
  );
}

/**
 * A model turn's parts, each with the `thoughtSignature` it came with. Thinking goes back as a
 * thought part (when the harness keeps it); a signature alone still goes back on its part.
 */
function modelParts(blocks: Block[]): Json[] {
  return blocks.flatMap((b): Json[] => {
    const signed = (part: Json, signature?: string) =>
      signature ? [{ ...part, thoughtSignature: signature }] : [part];
    if (b.type === "thinking") {
      return b.text === "" && !b.signature
        ? []
        : signed({ text: b.text, thought: true }, b.signature);
    }
    if (b.type === "text") {
      return b.text === "" && !b.signature ? [] : signed({ text: b.text }, b.signature);
    }
    if (b.type === "tool_call") {
      const call = { id: b.id, name: b.name, args: replayArgs(b) };
      return signed({ functionCall: call }, b.signature);
    }
    return imageParts([b]);
  });
}
