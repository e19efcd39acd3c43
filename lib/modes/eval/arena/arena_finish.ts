/**
 * After the arena ran: the table, every trajectory, the routes learned from every arena so far,
 * then the choice (`--pick`, or the picker on a terminal) and its patch applied.
 */
// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { join } from "node:path";
import { terminalText } from "../../../approval/visible.ts";
import { UserError } from "../../../errors.ts";
import { writeJsonWhole } from "../../../trajectory/write.ts";
import { readRecords } from "../job_layout.ts";
import { plural } from "../report/_format.ts";
import type { RunRecord } from "../types.ts";
import type { ArenaArgs } from "./arena_args.ts";
import { applyChosenPatch } from "./apply.ts";
import { type Choice, choose } from "./choose.ts";
import { bestPassing, type Contestant, contestantNamed, type PlannedArena } from "./plan.ts";
import { renderArenaTable } from "./table.ts";
import { LineReader, showPaged } from "./terminal_io.ts";

/** A contestant with its finished run. */
interface Row {
  contestant: Contestant;
  record: RunRecord;
}

/** A contestant's conversation, which the REPL can continue. */
interface HandoffContestant {
  label: string;
  session_id: string | null;
  harness: string;
  model: string;
}

/** What `--handoff FILE` receives. */
interface Handoff {
  applied: string | null;
  /** The contestant picked with `continue with X`. */
  continue: HandoffContestant | null;
  /** Every contestant that finished, for a `continue with X` typed after the arena. */
  contestants: HandoffContestant[];
}

/** Shows the results, applies the choice; answers the exit code. */
export async function finishArena(
  arena: PlannedArena,
  records: RunRecord[],
  opts: { args: ArenaArgs; env: Record<string, string>; color: boolean },
): Promise<number> {
  const { args, env } = opts;
  const rows = arena.contestants.flatMap((contestant) => {
    const record = records.find((r) => arena.byTrial.get(r.trial) === contestant);
    return record ? [{ contestant, record }] : [];
  });
  const decided = decidedPick(args, rows);
  const picked = decided.picked ? { picked: decided.picked } : {};
  const table = { color: opts.color, ...picked };
  console.log(renderArenaTable(rows, table).trimEnd());
  listTrajectories(arena.job.jobDir, rows);
  for (const line of await learnedRoutes(arena, env)) console.log(line);
  const terminal = Deno.stdin.isTerminal() && Deno.stderr.isTerminal();
  const reader = terminal ? new LineReader() : undefined;
  let choice: Choice = { continue: false, ...decided.picked ? { label: decided.picked } : {} };
  if (decided.note) console.error(decided.note);
  else if (!args.pick && reader) {
    const best = bestPassing(rows);
    if (best) console.error(`--pick best would apply ${best.contestant.label}.`);
    choice = await choose(rows.map((r) => r.contestant), {
      handoff: Boolean(args.handoff),
      io: {
        ask: (question) => reader.ask(question),
        showDiff: async (label) => await showPaged(await patchOf(arena, rowOf(rows, label)), env),
        say: (line) => console.error(line),
      },
    });
  } else if (!args.pick) console.error(howToApply(arena, rows));
  const chosen = choice.label ? rowOf(rows, choice.label) : undefined;
  const applied = chosen ? await applyRow(arena, chosen, { args, env, reader }) : undefined;
  if (args.handoff) {
    await writeHandoff(args.handoff, {
      applied: applied ? chosen!.contestant.label : null,
      continue: applied && choice.continue ? continueOf(chosen!) : null,
      contestants: rows.map(continueOf),
    });
  }
  return chosen && !applied ? 1 : 0;
}

/** What `--pick` decided before anyone is asked: the label, or why nothing is applied. */
function decidedPick(args: ArenaArgs, rows: Row[]): { picked?: string; note?: string } {
  if (!args.pick) return {};
  if (args.pick.kind === "none") return { note: "Nothing applied (--pick none)." };
  if (args.pick.kind === "best") {
    const best = bestPassing(rows);
    return best
      ? { picked: best.contestant.label }
      : { note: "No contestant passed the check: nothing applied." };
  }
  const named = contestantNamed(args.pick.which, rows.map((r) => r.contestant));
  return named
    ? { picked: named.label }
    : { note: `--pick ${args.pick.which} did not finish: nothing applied.` };
}

function rowOf(rows: Row[], label: string): Row {
  return rows.find((r) => r.contestant.label === label)!;
}

function patchFileOf(arena: PlannedArena, row: Row): string {
  return join(arena.job.jobDir, row.record.trial, "agent", "patch.diff");
}

async function patchOf(arena: PlannedArena, row: Row): Promise<string> {
  return await Deno.readTextFile(patchFileOf(arena, row)).catch(() => "");
}

/** Applies `row`'s patch to the working tree; false when it could not be applied. */
async function applyRow(
  arena: PlannedArena,
  row: Row,
  opts: { args: ArenaArgs; env: Record<string, string>; reader?: LineReader },
): Promise<boolean> {
  const { label, harness, model } = row.contestant;
  const patch = await patchOf(arena, row);
  try {
    const applied = await applyChosenPatch({
      cwd: arena.cwd,
      root: arena.job.source.root,
      patch,
      patchFile: patchFileOf(arena, row),
      label,
      yes: opts.args.yes,
      ...(opts.reader ? { ask: (q: string) => opts.reader!.confirm(q) } : {}),
      env: opts.env,
    });
    const files = applied.files.length;
    console.error(
      files
        ? `Applied ${label} (${harness} × ${model}): ${plural(files, "file")} changed.`
        : `${label} (${harness} × ${model}) changed nothing: nothing to apply.`,
    );
    return true;
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    // The message names paths the model chose.
    console.error(`error: ${terminalText(error.message)}`);
    if (error.hint) console.error(`hint: ${terminalText(error.hint)}`);
    return false;
  }
}

function continueOf(row: Row): HandoffContestant {
  const { label, harness, model } = row.contestant;
  return { label, session_id: row.record.session_id, harness, model };
}

async function writeHandoff(file: string, handoff: Handoff): Promise<void> {
  await writeJsonWhole(file, handoff);
  await Deno.chmod(file, 0o600).catch(() => {});
}

/** Without `--pick` and a terminal: how to apply one by hand. */
function howToApply(arena: PlannedArena, rows: Row[]): string {
  const example = bestPassing(rows) ?? rows[0];
  return "Nothing applied (no terminal to ask on). Apply one with git apply " +
    `${example ? patchFileOf(arena, example) : "<trial>/agent/patch.diff"}, ` +
    "or run again with --pick best (with --check) or --pick LETTER.";
}

/** The job folder and, per contestant, its trajectory and how to open its session. */
function listTrajectories(jobDir: string, rows: Row[]): void {
  console.log(`\nJob folder: ${jobDir} (interpreter eval report ${jobDir})`);
  for (const { contestant, record } of rows) {
    const trajectory = join(jobDir, record.trial, "agent", "trajectory.json");
    const resume = record.session_id ? `  interpreter resume ${record.session_id}` : "";
    console.log(`  ${contestant.label}  ${trajectory}${resume}`);
  }
}

/** The routes learned from every arena job so far (and this one, wherever it went). */
async function learnedRoutes(arena: PlannedArena, env: Record<string, string>): Promise<string[]> {
  const folders = new Set([arena.job.jobDir]);
  try {
    for await (const entry of Deno.readDir(arena.arenaHome)) {
      if (entry.isDirectory) folders.add(join(arena.arenaHome, entry.name));
    }
  } catch {
    // No arena folder yet (the job went elsewhere with --out).
  }
  const records: RunRecord[] = [];
  for (const folder of folders) records.push(...await readRecords(folder).catch(() => []));
  const { reportRoutes } = await import("../report/routes.ts");
  return await reportRoutes(records, false, env);
}
