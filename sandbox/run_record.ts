/**
 * Whether a sandboxed command may still run, found out without the caller's help.
 *
 * `CommandSandbox.wrap()` returns what to spawn and never sees the process, yet the session must
 * not remove a placeholder (`placeholders.ts`) while any sandbox that covers it could still run:
 * unlinking a mount point on the host detaches that mount in every other namespace. So every
 * command that covers a placeholder gets a run record, a path in the session folder that does not
 * exist yet when `wrap()` returns:
 *
 * - The launcher (`/bin/sh` outside the sandbox) claims it by creating it exclusively, writes its
 *   own pid on the first line and execs bwrap with `--info-fd` on it. bwrap appends the host pid
 *   of the sandbox's init (`"child-pid"`) and only then lets the sandbox set up its mounts; if
 *   bwrap dies before that, the sandbox never starts.
 * - The init of a pid namespace is reaped only after every process in it has exited, so while
 *   `/proc/<child-pid>` is there (a zombie aside), something in that sandbox may still run.
 * - A record nobody claimed yet can be revoked by creating it ourselves: the launcher then exits
 *   (code 125) instead of starting the sandbox.
 *
 * Nothing the sandboxed command does can shorten this: it never has the record open (bwrap closes
 * the info fd for it), cannot signal its own init, and cannot see the session folder writable.
 * Deno may not read `/proc` without `--allow-all`, so `_proc_facts.ts` asks a shell.
 */
import { type ProcFacts, procFacts } from "./_proc_facts.ts";

/** The descriptor the launcher opens the record on, passed to bwrap as `--info-fd`. */
export const RECORD_FD = 5;

/** What a run record says: not claimed yet, maybe still running, or over for good. */
export type RunState = "unclaimed" | "running" | "over";

/** Exit code of the launcher when its record was revoked before it started. */
export const REVOKED_EXIT_CODE = 125;

/** Options of `launcherArgs()`. */
export interface LauncherOptions {
  /** The bwrap program. */
  bwrap: string;
  /** bwrap's arguments; they carry `--info-fd RECORD_FD` when `record` is given. */
  bwrapArgs: string[];
  /** A seccomp filter to open on fd 3 for `--seccomp 3`. */
  filterPath?: string;
  /** The run record to claim; absolute, canonical, not existing yet. */
  record?: string;
}

const LAUNCHER = [
  'f="$1"; r="$2"; b="$3"; shift 3',
  'if [ -n "$r" ]; then',
  "  set -C",
  `  command exec ${RECORD_FD}>"$r" || {`,
  '    echo "error: the sandbox for this command was released before it started; run it again" >&2',
  `    exit ${REVOKED_EXIT_CODE}`,
  "  }",
  "  set +C",
  `  printf '%s\\n' "$$" >&${RECORD_FD}`,
  "fi",
  'if [ -n "$f" ]; then exec "$b" "$@" 3<"$f"; fi',
  'exec "$b" "$@"',
].join("\n");

/**
 * The argv for `/bin/sh` that claims `record` (when given), opens the filter on fd 3 (when given)
 * and execs bwrap. The arguments travel in `"$@"`, so nothing is quoted.
 */
export function launcherArgs(opts: LauncherOptions): string[] {
  return [
    "-c",
    LAUNCHER,
    "sh",
    opts.filterPath ?? "",
    opts.record ?? "",
    opts.bwrap,
    ...opts
      .bwrapArgs,
  ];
}

/** Reads what `record` says now; see the module comment for the reasoning. */
export async function runState(record: string): Promise<RunState> {
  return (await runStates([record]))[0];
}

/** `runState()` for several records, with one look at `/proc` (two when a launcher just ended). */
export async function runStates(records: string[]): Promise<RunState[]> {
  const contents = await Promise.all(records.map(readRecord));
  const launchers = contents.flatMap((c) =>
    c && !c.revoked && c.initPid === undefined && c.launcherPid !== undefined ? [c.launcherPid] : []
  );
  const inits = contents.flatMap((c) => (c?.initPid !== undefined ? [c.initPid] : []));
  const pids = [...launchers, ...inits];
  const facts = pids.length ? await procFacts({ fd: RECORD_FD, fdOf: launchers, pids }) : NO_FACTS;
  const states = contents.map((c, i): RunState | "reread" => {
    if (c === undefined) return "unclaimed";
    if (c.revoked) return "over";
    if (c.initPid !== undefined) return initLives(facts, c.initPid) ? "running" : "over";
    if (c.launcherPid === undefined) return "running";
    return holdsRecord(facts, c.launcherPid, records[i]) ? "running" : "reread";
  });
  const again = states.flatMap((state, i) => (state === "reread" ? [i] : []));
  if (again.length === 0) return states as RunState[];
  // Those launchers let go of their records: whatever bwrap wrote into them is there now.
  const later = await Promise.all(again.map((i) => readRecord(records[i])));
  const initsNow = later.flatMap((c) => (c?.initPid !== undefined ? [c.initPid] : []));
  const more = initsNow.length
    ? await procFacts({ fd: RECORD_FD, fdOf: [], pids: initsNow })
    : facts;
  again.forEach((i, k) => {
    const init = later[k]?.initPid;
    states[i] = init !== undefined && initLives(more, init) ? "running" : "over";
  });
  return states as RunState[];
}

/** Claims `record` for the session so that its launcher will not start; false if it did. */
export async function revoke(record: string): Promise<boolean> {
  try {
    await Deno.writeFile(record, new TextEncoder().encode(REVOKED), {
      createNew: true,
      mode: 0o600,
    });
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw error;
  }
}

const NO_FACTS: ProcFacts = { ownPidNs: "", fds: new Map(), processes: new Map() };

/** What `revoke()` writes; a launcher writes digits first. */
const REVOKED = "revoked\n";

interface RecordContent {
  revoked: boolean;
  launcherPid?: number;
  initPid?: number;
}

async function readRecord(path: string): Promise<RecordContent | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const line = text.match(/^(\d+)\n/);
  const init = text.match(/"child-pid":\s*(\d+)/);
  return {
    revoked: text === REVOKED,
    launcherPid: line ? Number(line[1]) : undefined,
    initPid: init ? Number(init[1]) : undefined,
  };
}

/** Whether process `pid` still has `record` open, as the launcher and bwrap do; unclear is yes. */
function holdsRecord(facts: ProcFacts, pid: number, record: string): boolean {
  const proc = facts.processes.get(pid);
  if (!proc?.exists || proc.state === "Z" || proc.state === "X") return false;
  const open = facts.fds.get(pid);
  return open === record || open === "?";
}

/**
 * Whether the sandbox whose init has host pid `pid` may still have a process. A zombie init has
 * outlived everything in its namespace; a pid now used by a process of our own pid namespace was
 * reused after the init was reaped. Anything unclear counts as alive.
 */
function initLives(facts: ProcFacts, pid: number): boolean {
  const proc = facts.processes.get(pid);
  if (!proc?.exists || proc.state === "Z" || proc.state === "X") return false;
  return proc.pidNs === undefined || proc.pidNs !== facts.ownPidNs;
}
