/**
 * Routes learned from a job (issue 35): per model, the harness whose pass rate over all the job's
 * tasks has an interval apart from every other harness's, and the `[harness_routes]` lines that
 * make it the default; `--write-routes` puts them in config.toml in place, comments kept.
 */
import { join } from "node:path";
import { ConfigError } from "../../../errors.ts";
import type { RunRecord } from "../types.ts";
import { overlaps, summarizeRow, type SummaryRow } from "./stats.ts";

/** A harness that won for a model, with the rows it beat. */
export interface LearnedRoute {
  model: string;
  harness: string;
  winner: SummaryRow;
  others: SummaryRow[];
}

/** Per model (sorted), the harness whose interval lies above every other harness's. */
export function learnedRoutes(records: readonly RunRecord[]): LearnedRoute[] {
  const models = [...new Set(records.map((r) => r.model))].sort();
  const out: LearnedRoute[] = [];
  for (const model of models) {
    const mine = records.filter((r) => r.model === model);
    const harnesses = [...new Set(mine.map((r) => r.harness))];
    if (harnesses.length < 2) continue;
    const rows = harnesses.map((h) => summarizeRow(mine.filter((r) => r.harness === h)))
      .sort((a, b) => b.passRate - a.passRate);
    const [winner, ...others] = rows;
    const apart = winner.interval !== null &&
      others.every((o) =>
        o.interval !== null && o.passRate < winner.passRate &&
        !overlaps(winner.interval!, o.interval)
      );
    if (apart) out.push({ model, harness: winner.harness, winner, others });
  }
  return out;
}

/** A route's `[harness_routes]` line, its model always quoted. */
function routeLine(route: LearnedRoute): string {
  return `${JSON.stringify(route.model)} = "${route.harness}"`;
}

/** The `[harness_routes]` lines for `routes`. */
function routeLines(routes: readonly LearnedRoute[]): string[] {
  return ["[harness_routes]", ...routes.map(routeLine)];
}

/** The report's routes section: what won, the config lines, or why none is suggested. */
export function renderRoutes(routes: readonly LearnedRoute[]): string[] {
  if (routes.length === 0) {
    return ["No harness route: no model has a harness whose interval is apart from the others'."];
  }
  const pct = (r: SummaryRow) => `${Math.round(r.passRate * 100)}%`;
  return [
    "Harness routes the results support (intervals apart from every other harness):",
    ...routes.map((r) =>
      `  ${r.model}: ${r.harness} ${pct(r.winner)} over ` +
      r.others.map((o) => `${o.harness} ${pct(o)}`).join(", ")
    ),
    "Lines for config.toml (eval report --write-routes adds them):",
    ...routeLines(routes).map((l) => `  ${l}`),
  ];
}

const HEADER = /^\s*\[\s*harness_routes\s*\]\s*(#.*)?$/;
const ANY_HEADER = /^\s*\[/;

/**
 * `text` (a config.toml) with `routes` in its `[harness_routes]` table: a model's existing line is
 * replaced, new ones follow the table's last key; without the table it is appended. Every other
 * line, comments included, stays as it was.
 */
export function withRoutes(text: string, routes: readonly LearnedRoute[]): string {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => HEADER.test(l));
  if (start === -1) {
    const sep = text === "" || text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
    return `${text}${sep}${routeLines(routes).join("\n")}\n`;
  }
  let end = lines.findIndex((l, i) => i > start && ANY_HEADER.test(l));
  if (end === -1) end = lines.length;
  let last = start;
  for (let i = start + 1; i < end; i++) if (/^\s*[^#\s]/.test(lines[i])) last = i;
  const added: string[] = [];
  for (const route of routes) {
    const at = lines.findIndex((l, i) => i > start && i < end && keyOf(l) === route.model);
    if (at === -1) added.push(routeLine(route));
    else lines[at] = routeLine(route);
  }
  lines.splice(last + 1, 0, ...added);
  return lines.join("\n");
}

/** The key of a `key = value` line (bare or quoted), or undefined. */
function keyOf(line: string): string | undefined {
  const m = line.match(/^\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*=/);
  if (!m) return undefined;
  const k = m[1];
  if (k.startsWith('"')) return JSON.parse(k);
  return k.startsWith("'") ? k.slice(1, -1) : k;
}

/** Writes `routes` into the config file at `file` (created when missing); returns what it said. */
export async function writeRoutes(file: string, routes: readonly LearnedRoute[]): Promise<string> {
  if (routes.length === 0) return `Nothing written to ${file}: no route is supported.`;
  let text = "";
  try {
    text = await Deno.readTextFile(file);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const next = withRoutes(text, routes);
  const { parse } = await import("smol-toml");
  try {
    parse(next);
  } catch (e) {
    throw new ConfigError(`Cannot add harness routes to ${file}: it is not valid TOML`, {
      hint: `Fix the file (interpreter reads it at start-up too), or add these lines by hand:\n${
        routeLines(routes).join("\n")
      }`,
      cause: e,
    });
  }
  await Deno.writeTextFile(file, next);
  return `Wrote ${routes.length} route(s) to [harness_routes] in ${file}.`;
}

/** The routes section of `eval report`, after writing the routes to config.toml when asked. */
export async function reportRoutes(
  records: readonly RunRecord[],
  write: boolean | undefined,
  env: Record<string, string>,
): Promise<string[]> {
  const routes = learnedRoutes(records);
  // Without a route to suggest, the report says so only when asked to write them.
  if (routes.length === 0 && !write) return [];
  const lines = ["", ...renderRoutes(routes)];
  if (!write) return lines;
  const { configHome } = await import("../../../config/load.ts");
  const file = join(configHome(env, Deno.cwd()), "config.toml");
  return [...lines, await writeRoutes(file, routes)];
}
