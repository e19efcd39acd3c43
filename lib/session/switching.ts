/**
 * Switching the harness or the model of a running session: the history is kept (re-expressed
 * for the new harness, or without reasoning the new model cannot read), the session file
 * records the switch, and front ends hear of it.
 */
import { resolveProvider } from "../config/provider.ts";
import type { ConfigValues } from "../config/schema.ts";
import { renderContext, withOpeningContext, withoutContext } from "../harness/context.ts";
import { loadHarness } from "../harness/load.ts";
import { translateHistory, withoutSealedReasoning } from "../harness/translate.ts";
import { openProvider } from "../providers/mod.ts";
import { sessionHarness } from "./agent_session.ts";
import { harnessDirs, isProvider } from "./choices.ts";
import { limitsOf, type LiveParts, type SessionParts, type SessionState } from "./session_parts.ts";
import { wireLabel, wireMismatch } from "./setup.ts";
import type { ReasoningEffort, SessionInfo } from "./types.ts";

/** The parts of a session a switch changes. */
export interface SwitchTarget {
  parts: SessionParts;
  state: SessionState;
  live: LiveParts;
  info: SessionInfo;
  config: ConfigValues;
}

/** Presents harness `id` from the next request on, keeping the history. */
export async function switchHarnessOf(t: SwitchTarget, id: string): Promise<void> {
  const { agent, recorder } = t.live;
  const state = t.state;
  const loaded = await loadHarness(id, harnessDirs(agent));
  // A session in lean mode stays lean with any harness.
  const next = sessionHarness(loaded, agent.config.values, state.harness.leanReason);
  if (!next.wireApis.includes(agent.settings.wireApi)) {
    throw wireMismatch(next.id, agent.settings.wireApi, next.wireApis);
  }
  // A session with its own instructions (a review) keeps them.
  if (!t.parts.config.instructions) {
    state.context = renderContext(next, await agent.promptVarsFor(next));
  }
  const translated = translateHistory(withoutContext(state.loop.messages), state.harness, next);
  state.loop.messages.splice(
    0,
    state.loop.messages.length,
    ...withOpeningContext(state.context, translated),
  );
  state.harness = next;
  state.loop.system = state.context.system;
  t.info.harness = next.id;
  t.info.harnessDir = next.dir;
  recorder.append({ type: "harness_switch", harness: next.id });
  recorder.syncMessages();
  t.parts.io.onEvent({ type: "harness_switched", harness: next.id });
}

/** Talks to model `spec` ("NAME" or "PROVIDER/NAME") from the next request on. */
export async function switchModelOf(
  t: SwitchTarget,
  spec: string,
  effort?: ReasoningEffort,
): Promise<void> {
  const { agent } = t.live;
  const state = t.state;
  const slash = spec.indexOf("/");
  const wanted = slash > 0 && isProvider(agent, spec.slice(0, slash))
    ? { provider: spec.slice(0, slash), model: spec.slice(slash + 1) }
    : { provider: state.route.providerId, model: spec };
  const values = { ...t.config, model: wanted.model, model_provider: wanted.provider };
  const resolved = resolveProvider({ ...agent.config, values }, t.parts.env);
  if (!state.harness.wireApis.includes(resolved.settings.wireApi)) {
    throw wireMismatch(state.harness.id, resolved.settings.wireApi, state.harness.wireApis);
  }
  t.live.provider = await openProvider(resolved.settings);
  const { loop } = state;
  loop.messages.splice(0, loop.messages.length, ...withoutSealedReasoning(loop.messages));
  state.route = { providerId: resolved.settings.id, wireApi: resolved.settings.wireApi };
  loop.model = resolved.model;
  if (effort) loop.reasoningEffort = effort;
  state.limits = limitsOf(t.parts.catalog, t.config, resolved.settings, resolved.model);
  loop.requestOptions = { ...loop.requestOptions, maxOutputCap: state.limits.maxOutput };
  const contextNote = state.limits.guessNote;
  const provider = state.route.providerId;
  Object.assign(t.info, {
    model: resolved.model,
    provider,
    wireApi: wireLabel(resolved.settings),
    contextNote,
  });
  const reasoningEffort = loop.reasoningEffort;
  t.live.recorder.append({
    type: "model_switch",
    provider,
    model: resolved.model,
    ...(reasoningEffort ? { reasoningEffort } : {}),
  });
  t.live.recorder.syncMessages();
  t.parts.io.onEvent({
    type: "model_switched",
    model: resolved.model,
    provider,
    reasoningEffort,
    contextNote,
  });
}
