/**
 * The harness a session runs with, as its config and route shape it: the tools its config calls
 * for (a tool's `when` in harness.toml), its lean surface for a small local model, Codex's code
 * mode for the models that run in it, and the tools a deny rule hides.
 */
import type { ConfigValues } from "../config/schema.ts";
import { codeModeReason, codeModeView } from "../harness/code_mode.ts";
import { leanView } from "../harness/lean.ts";
import { chooseLean } from "../harness/select.ts";
import { changesAllowed, toolsForSession, webSearchAvailable } from "../harness/session_tools.ts";
import type { Harness } from "../harness/types.ts";
import { type Catalog, modelLimits } from "../providers/catalog.ts";
import type { LocalSetup } from "../providers/local/models.ts";
import type { ProviderSettings, WireApi } from "../providers/types.ts";

/**
 * Why a session on `model` uses its harness's lean surface, or undefined: `lean` in config, else a
 * small model or window that a local server reports. A hosted model's window, however small, does
 * not make a session lean: only a local server's does (it is what the machine can hold).
 */
export function leanReason(
  values: ConfigValues,
  on: { catalog: Catalog; settings: ProviderSettings; model: string; local?: LocalSetup },
): string | undefined {
  const { local } = on;
  const window = local
    ? modelLimits(on.catalog, on.settings, {
      model: on.model,
      configuredWindow: local.contextWindow ?? values.model_context_window,
    }).contextWindow
    : undefined;
  return chooseLean({
    configured: values.lean,
    contextWindow: window,
    parameters: local?.parameters,
  });
}

/** How a session shapes its harness (`sessionHarness()`). */
export interface SessionHarnessOptions {
  /** Why the session asked for the lean surface; undefined: the full one. */
  lean?: string;
  /** Someone answers approval questions; default true. */
  canAsk?: boolean;
  /** The model and wire in use: code mode follows them, image tools follow `takesImages`. */
  route?: { model: string; wire: WireApi; takesImages?: boolean };
  /** Someone answers the model's questions and plans; default true. */
  answersQuestions?: boolean;
  /** The capabilities a permission rule hides. */
  hidden?: (capability: string) => boolean;
}

/**
 * `h` with the tools this session's config calls for (a tool's `when` in harness.toml), in its
 * lean surface when `opts.lean` (why the session asked for it) is given.
 */
export function sessionHarness(
  h: Harness,
  values: ConfigValues,
  opts: SessionHarnessOptions = {},
): Harness {
  const { lean, canAsk = true, route, answersQuestions = true, hidden } = opts;
  const mcpServers = Object.values(values.mcp_servers ?? {}).some((s) => s.enabled !== false);
  // Code mode is the full surface of the models that run in it; a lean session stays classic.
  const code = lean === undefined && route && values.code_mode !== false
    ? codeModeReason(h, route.model, route.wire)
    : undefined;
  // Tools that change things stay out where nobody could approve a change (Gemini CLI headless).
  const changes = changesAllowed(values.sandbox_mode, values.approval_policy, canAsk);
  const view = toolsForSession(lean === undefined ? h : leanView(h, lean), {
    mcpServers,
    answersQuestions,
    changesAllowed: changes,
    takesImages: route?.takesImages,
    webSearch: webSearchAvailable(values),
    hidden,
  });
  return code ? codeModeView(view, code) : view;
}
