/**
 * A tool entry's `route` in harness.toml: a second mapping of the same declaration, taken when
 * the parameter `when` names matches `matches` (or is present), checked like a tool of its own.
 */
import { HarnessError } from "../errors.ts";
import type { ToolDeclaration } from "../model/message.ts";
import { capabilityById } from "../tools/registry.ts";
import { checkToolMapping } from "./_check_tool.ts";
import { resultFormat } from "./_check_result.ts";
import type { HarnessSpec } from "./spec_schema.ts";
import type { HarnessTool, ToolRoute } from "./types.ts";

/** The template checks (template_checks.ts), for a harness that is not built in. */
type TemplateChecks = typeof import("./template_checks.ts");

/** The `route` of a tool entry, checked like a tool of its own with the same declaration. */
export function loadRoute(
  route: NonNullable<HarnessSpec["tools"][number]["route"]>,
  declaration: ToolDeclaration,
  atTool: (key: string) => string,
  checks?: TemplateChecks,
): ToolRoute {
  const at = (key: string) => atTool(`route.${key}`);
  const props = declaration.parameters.properties;
  if (!props || typeof props !== "object" || !Object.hasOwn(props, route.when)) {
    throw new HarnessError(
      `${at("when")}: "${route.when}" is not a parameter of tool "${declaration.name}"`,
      { hint: "Name a declared parameter whose value selects the route" },
    );
  }
  const tool: HarnessTool = {
    declaration,
    capability: route.capability,
    args: { ...route.args },
    fixedArgs: JSON.parse(JSON.stringify(route.fixed_args)),
    scale: { ...route.scale },
    result: resultFormat(route.result),
    ...(Object.keys(route.errors).length ? { errors: { ...route.errors } } : {}),
  };
  checkToolMapping(tool, capabilityById(route.capability), at);
  checks?.checkResultPlaceholders(tool, at);
  checks?.checkToolErrors(tool, at);
  checks?.checkFailedResult(tool, at);
  return { when: route.when, matches: routePattern(route.matches, at), tool };
}

function routePattern(pattern: string | undefined, at: (key: string) => string) {
  if (pattern === undefined) return undefined;
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw new HarnessError(`${at("matches")}: ${(error as Error).message}`, {
      hint: "Write a JavaScript regular expression, with backslashes doubled in TOML strings",
    });
  }
}
