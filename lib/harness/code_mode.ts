/**
 * Codex's code mode (`[code_mode]` in harness.toml; harnesses/native/CODE_MODE.md): for the
 * models it names, the session sends the `code_mode = true` tools (a freeform `exec` that runs
 * JavaScript, `wait`, `clock.sleep`) in an `additional_tools` item, and every other tool of the
 * harness becomes a nested tool that `exec` source calls. Which sessions use it is
 * `codeModeReason()`; what they see is `codeModeView()`.
 */
import { HarnessError } from "../errors.ts";
import type { WireRequestSpec } from "../model/request_settings.ts";
import type { WireApi } from "../providers/types.ts";
import { outputLookup } from "./_derived.ts";
import { globRegExp } from "./_glob.ts";
import { renderResult } from "./call.ts";
import { nestedToolReference } from "./_code_mode_reference.ts";
import { camelSpec, loadContext } from "./request_schema.ts";
import type { HarnessSpec } from "./spec_schema.ts";
import type { CodeModeSurface, Harness, HarnessTool } from "./types.ts";

export type { CodeModeSurface };

/** What loading `[code_mode]` needs from the rest of the spec's loading. */
export interface CodeModeLoadOptions {
  dir: string;
  specFile: string;
  /** Every `[[tools]]` entry, loaded and checked, code-mode ones included. */
  tools: HarnessTool[];
  at: (key: string) => string;
  readText: (path: string, where: string) => Promise<string>;
}

/** The spec's `[code_mode]`, checked against its tools (`{}` without one). */
export async function loadCodeMode(
  spec: HarnessSpec,
  opts: CodeModeLoadOptions,
): Promise<{ codeMode?: CodeModeSurface }> {
  const block = spec.code_mode;
  const tools = opts.tools.filter((t) => t.codeMode);
  if (!block) {
    if (tools.length === 0) return {};
    throw new HarnessError(
      `${opts.at("tools")}: "${tools[0].declaration.name}" has code_mode = true, but there is ` +
        "no [code_mode] table",
      { hint: "Add [code_mode] with the models that use it, or remove code_mode from the tool" },
    );
  }
  const at = (key: string) => opts.at(`code_mode.${key}`);
  if (tools.length === 0) {
    throw new HarnessError(`${at("models")}: no [[tools]] entry has code_mode = true`, {
      hint: "Mark the tools sent in code mode with code_mode = true",
    });
  }
  checkNamespaces(tools, block.namespaces.map((n) => n.name), at("namespaces"));
  checkNestedResults(block.nested_results, opts.tools, at("nested_results"));
  const context = await loadContext(block.context, {
    dir: opts.dir,
    specFile: opts.specFile,
    systemPrompt: { text: "", slot: "system", cache: false },
    at,
    readText: opts.readText,
  });
  const request: WireRequestSpec = {
    ...camelSpec(block.request),
    toolsItem: "additional_tools",
    toolNamespaces: block.namespaces,
  };
  return {
    codeMode: {
      models: block.models.map(globRegExp),
      patterns: block.models,
      wireApis: block.wire_apis,
      tools,
      context: context.slice(1),
      request,
      nestedResults: block.nested_results,
    },
  };
}

function checkNamespaces(tools: HarnessTool[], names: string[], where: string): void {
  for (const tool of tools) {
    const ns = tool.declaration.namespace;
    if (ns === undefined || names.includes(ns)) continue;
    throw new HarnessError(
      `${where}: tool "${tool.declaration.name}" is in namespace "${ns}", which is not listed`,
      { hint: `List it in [code_mode].namespaces, or use one of: ${names.join(", ")}` },
    );
  }
}

function checkNestedResults(
  results: Record<string, Record<string, string>>,
  tools: HarnessTool[],
  where: string,
): void {
  const nested = tools.filter((t) => !t.codeMode).map((t) => t.declaration.name);
  for (const name of Object.keys(results)) {
    if (nested.includes(name)) continue;
    throw new HarnessError(`${where}: "${name}" is not a tool that code mode reaches`, {
      hint: `Name one of: ${nested.join(", ")}`,
    });
  }
}

/** Why a session on `model` over `wire` runs `h` in code mode ("gpt-6*"), or undefined. */
export function codeModeReason(h: Harness, model: string, wire: WireApi): string | undefined {
  const cm = h.codeMode;
  if (!cm || !cm.wireApis.includes(wire)) return undefined;
  const i = cm.models.findIndex((m) => m.test(model));
  return i < 0 ? undefined : cm.patterns[i];
}

/**
 * `h` as a code-mode session presents it: the code-mode tools sent, the others kept as nested
 * tools (never sent) unless a code-mode tool has their name, the code-mode context after the harness's, and its Responses settings
 * over the harness's as a last model rule that every model matches.
 */
export function codeModeView(h: Harness, reason: string): Harness {
  const cm = h.codeMode;
  if (!cm) return h;
  const responses = h.request.responses ?? { base: {}, rules: [] };
  const rule = { models: [/^/], patterns: ["*"], set: cm.request };
  // A code-mode tool replaces the classic tool of the same name (request_user_input).
  const sent = new Set(cm.tools.map((t) => t.declaration.name));
  const reached = h.tools.filter((t) => !sent.has(t.declaration.name));
  const nested = reached.map((t) => ({ ...t, nested: true, deferred: false }));
  return {
    ...h,
    tools: [...cm.tools.map((t) => withReference(t, reached, cm)), ...nested],
    context: [...h.context, ...cm.context],
    request: { ...h.request, responses: { ...responses, rules: [...responses.rules, rule] } },
    codeModeReason: reason,
  };
}

/** `exec` (capability `code.exec`) with the nested tools' reference after its description. */
function withReference(t: HarnessTool, nested: HarnessTool[], cm: CodeModeSurface): HarnessTool {
  if (t.capability !== "code.exec" || nested.length === 0) return t;
  const reference = nestedToolReference(nested, cm.nestedResults);
  const description = `${t.declaration.description}\n\n${reference}`;
  return { ...t, declaration: { ...t.declaration, description } };
}

/**
 * What a nested call returns to the source: the object `[code_mode].nested_results` builds for
 * the tool (numbers as numbers, null fields left out), else the tool's rendered text.
 */
export function nestedValue(
  h: Harness,
  tool: string,
  result: { text: string; output?: unknown },
): unknown {
  const shape = h.codeMode?.nestedResults[tool];
  if (!shape || result.output === undefined) return result.text;
  const probe = h.tools.find((t) => t.declaration.name === tool);
  if (!probe) return result.text;
  const out: Record<string, unknown> = {};
  const lookup = typeof result.output === "object" && result.output !== null
    ? outputLookup(result.output as Record<string, unknown>)
    : () => undefined;
  for (const [key, placeholder] of Object.entries(shape)) {
    // A field null for this output is left out (exit_code while a session runs on).
    if (lookup(placeholder)?.value === null) continue;
    const text = renderField(probe, result.output, placeholder);
    out[key] = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  }
  return out;
}

function renderField(tool: HarnessTool, output: unknown, placeholder: string): string {
  return renderResult({ ...tool, result: { template: `{${placeholder}}` } }, output);
}
