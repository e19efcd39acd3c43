import { ToolError } from "../errors.ts";

/** One `@@` section of an update: lines to find (`oldLines`) and what replaces them. */
export interface Hunk {
  /** Text after `@@ `: a line that appears before the hunk, used as an anchor. */
  context?: string;
  oldLines: string[];
  newLines: string[];
  /** The hunk was followed by `*** End of File`: it must match at the end of the file. */
  endOfFile: boolean;
}

/** One file operation of a patch. */
export type PatchOp =
  | { kind: "add"; path: string; contents: string }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; movePath?: string; hunks: Hunk[] };

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File:";
const DELETE = "*** Delete File:";
const UPDATE = "*** Update File:";
const MOVE = "*** Move to:";
const EOF_MARK = "*** End of File";
const HINT = "Send the patch as *** Begin Patch, then *** Add File: / *** Delete File: / " +
  "*** Update File: sections with @@ hunks, then *** End Patch";

/** Removes a shell heredoc wrapper (`apply_patch <<'EOF'` … `EOF`) and surrounding blank lines. */
export function stripHeredoc(text: string): string {
  const lines = text.replace(/\r\n/g, "\n").trim().split("\n");
  const m = /^\s*(?:(?:apply_patch|applypatch)\s*)?<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1\s*$/.exec(
    lines[0],
  );
  if (m && lines.length >= 2 && lines[lines.length - 1].trim() === m[2]) {
    return lines.slice(1, -1).join("\n");
  }
  return lines.join("\n");
}

/** Parses the patch envelope into file operations; throws ToolError naming the bad line. */
export function parsePatch(text: string): PatchOp[] {
  const lines = stripHeredoc(text).split("\n").map((l) => l.replace(/\r$/, ""));
  if (lines[0]?.trim() !== BEGIN) {
    throw new ToolError(`Invalid patch: the first line must be "${BEGIN}"`, HINT);
  }
  let end = lines.length;
  while (end > 1 && lines[end - 1].trim() === "") end--;
  if (lines[end - 1].trim() === END) end--;
  const ops: PatchOp[] = [];
  let i = 1;
  while (i < end) {
    const line = lines[i];
    if (line.trim() === "") {
      i++;
      continue;
    }
    const header = line.trim();
    if (header === END) {
      throw new ToolError(`Invalid patch: unexpected text after "${END}" at line ${i + 1}`, HINT);
    }
    if (header.startsWith(ADD)) {
      i = parseAdd(lines, i, end, pathOf(header, ADD, i), ops);
    } else if (header.startsWith(DELETE)) {
      ops.push({ kind: "delete", path: pathOf(header, DELETE, i) });
      i++;
    } else if (header.startsWith(UPDATE)) {
      i = parseUpdate(lines, i, end, pathOf(header, UPDATE, i), ops);
    } else {
      throw new ToolError(
        `Invalid patch: line ${i + 1} "${clip(line)}" is not a file header`,
        `Start each file section with "${ADD}", "${DELETE}" or "${UPDATE}"`,
      );
    }
  }
  if (ops.length === 0) throw new ToolError("Invalid patch: it changes no files", HINT);
  return ops;
}

function pathOf(header: string, prefix: string, i: number): string {
  const path = header.slice(prefix.length).trim();
  if (path === "") {
    throw new ToolError(`Invalid patch: missing file path at line ${i + 1}`, HINT);
  }
  return path;
}

function isHeader(line: string): boolean {
  const t = line.trim();
  return t === END || [ADD, DELETE, UPDATE].some((p) => t.startsWith(p));
}

function parseAdd(lines: string[], i: number, end: number, path: string, ops: PatchOp[]): number {
  const body: string[] = [];
  for (i++; i < end && !isHeader(lines[i]); i++) {
    if (!lines[i].startsWith("+")) {
      throw new ToolError(
        `Invalid patch: line ${i + 1} in added file "${path}" does not start with "+"`,
        'Prefix every line of a new file with "+"',
      );
    }
    body.push(lines[i].slice(1));
  }
  ops.push({ kind: "add", path, contents: body.length ? body.join("\n") + "\n" : "" });
  return i;
}

function parseUpdate(
  lines: string[],
  i: number,
  end: number,
  path: string,
  ops: PatchOp[],
): number {
  i++;
  let movePath: string | undefined;
  if (i < end && lines[i].trim().startsWith(MOVE)) {
    movePath = pathOf(lines[i].trim(), MOVE, i);
    i++;
  }
  const hunks: Hunk[] = [];
  let hunk: Hunk | undefined;
  for (; i < end && !isHeader(lines[i]); i++) {
    const line = lines[i];
    if (line.trim() === EOF_MARK) {
      if (!hunk) throw badLine(path, i, line);
      hunk.endOfFile = true;
      hunk = undefined;
      continue;
    }
    if (line === "@@" || line.startsWith("@@ ")) {
      const context = anchorOf(line);
      hunk = { context, oldLines: [], newLines: [], endOfFile: false };
      hunks.push(hunk);
      continue;
    }
    if (!hunk) {
      if (hunks.length > 0) throw badLine(path, i, line);
      hunk = { oldLines: [], newLines: [], endOfFile: false };
      hunks.push(hunk);
    }
    const mark = line[0];
    const text = line.slice(1);
    if (line === "" || mark === " ") {
      hunk.oldLines.push(text);
      hunk.newLines.push(text);
    } else if (mark === "-") hunk.oldLines.push(text);
    else if (mark === "+") hunk.newLines.push(text);
    else throw badLine(path, i, line);
  }
  const empty = hunks.find((h) => h.oldLines.length === 0 && h.newLines.length === 0);
  if ((hunks.length === 0 && !movePath) || empty) {
    throw new ToolError(
      `Invalid patch: the update of "${path}" has ${empty ? "an empty hunk" : "no hunks"}`,
      'Add @@ hunks with " " context, "-" removed and "+" added lines',
    );
  }
  ops.push({ kind: "update", path, movePath, hunks });
  return i;
}

/** The anchor text of a `@@` line; a unified-diff range (`@@ -1,2 +1,3 @@ f`) keeps only `f`. */
function anchorOf(line: string): string | undefined {
  let text = line.slice(3);
  const range = /^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?(.*)$/.exec(text);
  if (range) text = range[1];
  return text.trim() ? text : undefined;
}

function badLine(path: string, i: number, line: string): ToolError {
  return new ToolError(
    `Invalid patch: line ${i + 1} "${clip(line)}" in the update of "${path}" is not a hunk line`,
    'Start hunks with "@@" and prefix each hunk line with " " (context), "-" or "+"',
  );
}

function clip(s: string): string {
  return s.length > 80 ? s.slice(0, 77) + "..." : s;
}
