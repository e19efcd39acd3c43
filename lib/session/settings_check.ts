/**
 * The checks every settings value of a session passes, the start-up values (flags, `-c`, config,
 * profile, a resumed session's) in `openAgentSession()` and each change in `configure()` alike:
 * the harness must speak the wire in use, a model that cannot call tools needs a harness that
 * sends none, and the model should be in the list at hand for its provider (the server's list
 * fetched earlier by `Session.models()`, else the model catalog's; nothing is fetched here).
 * An unlisted model is refused only when switched to by hand without "!"; a start-up value is
 * never refused for it, only noted.
 */
import { LOCAL_PROVIDERS } from "../config/schema.ts";
import { nearestNames } from "../nearest.ts";
import type { Harness } from "../harness/types.ts";
import type { WireApi } from "../model/request_settings.ts";
import { type Catalog, catalogProvider } from "../providers/catalog.ts";
import type { LocalSetup } from "../providers/local/models.ts";
import type { ProviderSettings } from "../providers/types.ts";
import { UnlistedModelError } from "./errors.ts";
import { wireMismatch } from "./setup.ts";

/**
 * Refuses `harness` over `wire` when it does not speak it, and a model a local server says
 * cannot call tools under a harness that sends tools (text-protocol harnesses send none).
 */
export function checkPresentation(harness: Harness, wire: WireApi, local?: LocalSetup): void {
  if (!harness.wireApis.includes(wire)) throw wireMismatch(harness.id, wire, harness.wireApis);
  if (local?.toolsProblem && !harness.protocol) throw local.toolsProblem;
}

/**
 * The note for a start-up model no list at hand has (the catalog's, at start-up), or undefined;
 * none when `guessNote` says so already (the window is guessed for a model the catalog lacks),
 * nor for a local server's model.
 */
export function startupModelNote(
  on: { model: string; settings: AskedModel["settings"]; guessNote?: string },
  catalog: Catalog,
): string | undefined {
  // A local server's own list was asked at start-up: a model it lacks is refused there.
  if (on.guessNote || (LOCAL_PROVIDERS as readonly string[]).includes(on.settings.id)) return;
  const asked = { model: on.model, spec: on.model, settings: on.settings };
  const unlisted = unlistedModel(asked, { catalog });
  if (!unlisted) return undefined;
  const near = unlisted.nearest.length ? ` (nearest listed: ${unlisted.nearest.join(", ")})` : "";
  return `The model "${on.model}" is not in the model catalog for provider ` +
    `"${on.settings.id}"${near}; it is used as given`;
}

/** A server's list of models as `Session.models()` last read it; `error` when it could not. */
export interface ServedList {
  ids: string[];
  error?: string;
}

/** The lists at hand: the catalog, and the servers' lists fetched earlier by provider id. */
export interface ModelLists {
  catalog: Catalog;
  served?: ReadonlyMap<string, ServedList>;
}

/** A model asked for: the name at a provider, as asked ("NAME" or "PROVIDER/NAME"). */
export interface AskedModel {
  model: string;
  spec: string;
  settings: Pick<ProviderSettings, "id" | "baseUrl">;
  /** The provider's own model (configured or built-in default): always taken. */
  providerModel?: string;
}

/**
 * The error for `asked` when the list at hand for its provider lacks it, naming the nearest
 * names; undefined when listed, or when there is no list (none known, or the server could not
 * be asked).
 */
export function unlistedModel(
  asked: AskedModel,
  lists: ModelLists,
): UnlistedModelError | undefined {
  const { model, settings } = asked;
  const served = lists.served?.get(settings.id);
  if (served?.error) return undefined;
  const ids = served?.ids ?? catalogProvider(lists.catalog, settings)?.models.map((m) => m.id);
  if (!ids?.length || model === asked.providerModel) return undefined;
  // Ollama takes a name without its tag as `NAME:latest`.
  if ([model, `${model}:latest`].some((id) => ids.includes(id))) return undefined;
  const prefix = asked.spec === model ? "" : `${settings.id}/`;
  const nearest = nearestNames(model, ids).map((id) => `${prefix}${id}`);
  return new UnlistedModelError(
    { model, provider: settings.id, spec: asked.spec },
    served ? "server" : "catalog",
    nearest,
  );
}

/** The servers' lists `Session.models()` read, by provider id, for later checks. */
export function servedLists(
  providers: ReadonlyArray<
    { provider: string; models: { id: string }[]; live?: { error?: string } }
  >,
): Map<string, ServedList> {
  const out = new Map<string, ServedList>();
  for (const p of providers) {
    if (!p.live) continue;
    out.set(p.provider, { ids: p.models.map((m) => m.id), ...(p.live.error ? p.live : {}) });
  }
  return out;
}
