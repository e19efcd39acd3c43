/**
 * Code mode's `exec` and `wait` (harnesses/native/CODE_MODE.md): the session's cells, each a
 * fresh process inside the command sandbox, started by `exec` and resumed or ended by `wait`.
 * Loaded only when a code-mode tool first runs.
 */
import { Buffer } from "node:buffer";
import { fileURLToPath } from "node:url";
import { isCompiledBinary } from "../../../sandbox/fs_helper_client.ts";
import { bundledProgram } from "../../../sandbox/bundled_program.ts";
import { ToolError } from "../../errors.ts";
import { resourceKey, resourcesOf } from "../resources.ts";
import { sandboxedSpawn } from "../_sandboxed_spawn.ts";
import type { ToolContext } from "../types.ts";
import { Cell, type CellReport } from "./cell.ts";
import { parseExecSource } from "./pragma.ts";

/** How long `exec` and `wait` wait before they yield, when the model sets nothing. */
export const DEFAULT_YIELD_MS = 10_000;
/** Tokens of output one result holds when the model sets nothing. */
export const DEFAULT_MAX_TOKENS = 10_000;
/** The longest a cell may live. */
const MAX_LIFETIME_MS = 30 * 60_000;
/** Characters of output one cell keeps in all. */
const MAX_CELL_OUTPUT = 1_000_000;
/** Megabytes of JavaScript heap one cell may use. */
const HEAP_MB = 256;
/** The argument that makes a compiled `interpreter` serve a cell (see main.ts). */
export const CODE_CELL_ARG = "__code_cell";

/** The capability output of `exec` and `wait`, which the harness's result template renders. */
export interface CellOutput {
  completed: boolean;
  failed: boolean;
  terminated: boolean;
  /** While the cell still runs, the id `wait` takes; else null (its template line is left out). */
  runningCellId: string | null;
  /** Seconds this call took, one decimal. */
  wallTimeS: string;
  /** The texts the source emitted, one part each. */
  items: string[];
  /** What the source threw, or null. */
  error: string | null;
}

class Cells implements AsyncDisposable {
  next = 0;
  readonly open = new Map<string, Cell>();
  stored: Record<string, unknown> = {};
  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all([...this.open.values()].map((cell) => cell.terminate()));
    this.open.clear();
  }
}

const CELLS = resourceKey<Cells>("code_mode.cells");

function cellsOf(ctx: ToolContext): Cells {
  const resources = resourcesOf(ctx);
  let cells = resources.get(CELLS);
  if (!cells) resources.set(CELLS, cells = new Cells());
  return cells;
}

/** Runs `source` in a new cell until it settles or yields. */
export async function execSource(source: string, ctx: ToolContext): Promise<CellOutput> {
  const started = Date.now();
  const nested = ctx.nestedTools;
  if (!nested) {
    throw new ToolError("exec runs only in code mode", "Call the other tools directly");
  }
  const parsed = parseExecSource(source);
  const cells = cellsOf(ctx);
  const id = String(++cells.next);
  const names = nested.names();
  const tools = Object.fromEntries(names.map((name) => [jsName(name), name]));
  const spawn = await sandboxedSpawn(
    await cellCommand(),
    { cwd: ctx.cwd, env: cellEnv(ctx.env) },
    ctx,
  );
  const cell = new Cell({
    id,
    source: parsed.code,
    tools,
    descriptions: {},
    stored: cells.stored,
    spawn: { cmd: spawn.cmd, args: spawn.args, env: spawn.env, cwd: ctx.cwd },
    maxLifetimeMs: MAX_LIFETIME_MS,
    maxOutputChars: MAX_CELL_OUTPUT,
  });
  cells.open.set(id, cell);
  return await attach(cell, cells, ctx, {
    ms: parsed.yieldTimeMs ?? DEFAULT_YIELD_MS,
    maxTokens: parsed.maxOutputTokens,
    started,
  });
}

/** Resumes cell `cellId` (or ends it, with `terminate`). */
export async function waitCell(
  input: { cellId: string; yieldTimeMs?: number; maxTokens?: number; terminate?: boolean },
  ctx: ToolContext,
): Promise<CellOutput> {
  const started = Date.now();
  const cells = cellsOf(ctx);
  const cell = cells.open.get(input.cellId);
  if (!cell) {
    return output({ state: "done", items: [], error: `exec cell ${input.cellId} not found` }, {
      started,
      id: input.cellId,
    });
  }
  if (input.terminate) {
    cells.open.delete(cell.id);
    const report = await cell.terminate();
    return output(report, { started, id: cell.id, maxTokens: input.maxTokens });
  }
  return await attach(cell, cells, ctx, {
    ms: input.yieldTimeMs ?? DEFAULT_YIELD_MS,
    maxTokens: input.maxTokens,
    started,
  });
}

async function attach(
  cell: Cell,
  cells: Cells,
  ctx: ToolContext,
  opts: { ms: number; maxTokens?: number; started: number },
): Promise<CellOutput> {
  const nested = ctx.nestedTools!;
  const run = (name: string, input: unknown) =>
    nested.call(name, input, { callId: ctx.callId, signal: ctx.signal });
  let report = await cell.attach(opts.ms, run, ctx.signal);
  // An interrupted call ends its cell: nothing is left running that the model cannot see.
  if (ctx.signal.aborted && !cell.done) report = await cell.terminate();
  if (report.state !== "running") cells.open.delete(cell.id);
  if (report.stored) cells.stored = report.stored;
  return output(report, { started: opts.started, id: cell.id, maxTokens: opts.maxTokens });
}

function output(
  report: CellReport,
  opts: { started: number; id: string; maxTokens?: number },
): CellOutput {
  const seconds = Math.round((Date.now() - opts.started) / 100) / 10;
  return {
    completed: report.state === "done" && report.error === undefined,
    failed: report.state === "done" && report.error !== undefined,
    terminated: report.state === "terminated",
    runningCellId: report.state === "running" ? opts.id : null,
    wallTimeS: seconds.toFixed(1),
    items: truncated(report.items, opts.maxTokens ?? DEFAULT_MAX_TOKENS),
    error: report.error ?? null,
  };
}

/** The items within about `maxTokens` tokens (4 characters each), cut with a note. */
export function truncated(items: string[], maxTokens: number): string[] {
  let budget = maxTokens * 4;
  const out: string[] = [];
  for (const [i, item] of items.entries()) {
    if (item.length <= budget) {
      out.push(item);
      budget -= item.length;
      continue;
    }
    const left = items.slice(i).reduce((n, t) => n + t.length, 0) - budget;
    out.push(`${item.slice(0, budget)}\n[… ${left} characters of output left out]`);
    break;
  }
  return out;
}

/** A tool name as a JavaScript identifier (`mcp__s__t-x` → `mcp__s__t_x`). */
export function jsName(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_$]/g, "_");
  return /^[0-9]/.test(id) ? `_${id}` : id || "_";
}

/**
 * The program that serves one cell: this Deno with no permissions, or a compiled self. The
 * program goes as a `data:` URL, so that the sandbox need not see where this program's files are.
 */
async function cellCommand(): Promise<string[]> {
  const execPath = Deno.execPath();
  if (isCompiledBinary(execPath)) return [execPath, CODE_CELL_ARG];
  return [
    execPath,
    "run",
    "--quiet",
    "--no-config",
    "--no-lock",
    "--no-prompt",
    `--v8-flags=--max-old-space-size=${HEAP_MB}`,
    await cellProgram(),
  ];
}

let program: Promise<string> | undefined;

function cellProgram(): Promise<string> {
  const bundled = bundledProgram("sandbox/code_cell_main.ts");
  const path = bundled ??
    fileURLToPath(new URL("../../../sandbox/code_cell_main.ts", import.meta.url));
  const type = bundled ? "javascript" : "typescript";
  return program ??= Deno.readFile(path).then((bytes) =>
    `data:application/${type};base64,${encodeBase64(bytes)}`
  );
}

/**
 * The cell's environment: the shell commands' (already under `[shell_environment_policy]`),
 * never a name that looks like a secret, whatever the policy lets through.
 */
export function cellEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" };
  for (const [name, value] of Object.entries(env)) {
    if (/KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL|AUTH/i.test(name)) continue;
    out[name] = value;
  }
  return out;
}

function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}
