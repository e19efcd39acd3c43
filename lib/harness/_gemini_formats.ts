/**
 * Derived result-template placeholders in Gemini CLI's layouts: a folder listing with `[DIR]`
 * marks and file sizes, grep matches grouped by file as `L<line>: <text>` lines, and background
 * processes by PID.
 */

type Output = Record<string, unknown>;
type Derived = (o: Output) => { value: unknown } | undefined;

interface ListEntry {
  path: string;
  kind: string;
  size: number | null;
}

interface GrepLine {
  path: string;
  line: number;
  text: string;
  match: boolean;
}

/** Placeholders for result templates; merged into `FORMAT_DERIVED`. */
export const GEMINI_DERIVED: Record<string, Derived> = {
  /** A listing as Gemini CLI's list_directory gives it: `[DIR] name`, then `name (N bytes)`. */
  dir_listing: (o) =>
    Array.isArray(o.entries) ? { value: dirListing(o.entries as ListEntry[]) } : undefined,
  /**
   * Grep content lines grouped by file as Gemini CLI's grep_search gives them: `File: <path>`,
   * then `L<n>: <text>` for a match and `L<n>- <text>` for a context line, files between `---`.
   */
  file_grouped_lines: (o) =>
    Array.isArray(o.lines) && typeof o.mode === "string"
      ? { value: fileGroupedLines(o.lines as GrepLine[]) }
      : undefined,
  /** Background jobs, one `PID <pid> (<state>): <command>` line each. */
  background_lines: (o) =>
    Array.isArray(o.jobs) ? { value: backgroundLines(o.jobs as Job[]) } : undefined,
};

interface Job {
  pid: number;
  command: string;
  status: string;
  exitCode: number | null;
  signal: string | null;
}

function backgroundLines(jobs: Job[]): string {
  return jobs.map((j) => {
    const state = j.status === "running"
      ? "running"
      : j.signal
      ? `ended by ${j.signal}`
      : `exited with code ${j.exitCode}`;
    return `PID ${j.pid} (${state}): ${j.command}`;
  }).join("\n");
}

function dirListing(entries: ListEntry[]): string {
  const dirs = entries.filter((e) => e.kind === "dir").map((e) => `[DIR] ${e.path}`);
  const files = entries.filter((e) => e.kind !== "dir").map((e) =>
    e.size === null ? e.path : `${e.path} (${e.size} bytes)`
  );
  return [...dirs, ...files].join("\n");
}

function fileGroupedLines(lines: GrepLine[]): string {
  const blocks: string[] = [];
  let path: string | undefined;
  let block: string[] = [];
  for (const l of lines) {
    if (l.path !== path) {
      if (path !== undefined) blocks.push(block.join("\n"));
      path = l.path;
      block = [`File: ${l.path}`];
    }
    block.push(`L${l.line}${l.match ? ":" : "-"} ${l.text}`);
  }
  if (path !== undefined) blocks.push(block.join("\n"));
  return blocks.join("\n---\n");
}
