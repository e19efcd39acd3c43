/**
 * What an edit waiting for approval would change, from its input alone (nothing is read from
 * disk: the paths are the model's): each file with a unified diff of the text it takes out and
 * puts in, for front ends that show the change before it runs (an editor's permission request).
 */
import { isAbsolute, join } from "node:path";
import type { ApprovalQuestion } from "../../approval/hook.ts";
import { editorChanges, notebookChanges } from "./_tool_view_files.ts";
import type { FileChangeView } from "./tool_view_types.ts";

type Fields = Record<string, unknown>;

/** The files an edit in `question` would change; empty for anything that is not an edit. */
export function proposedChanges(question: ApprovalQuestion, cwd: string): FileChangeView[] {
  const input = parsed(question.subject);
  if (!input) return [];
  switch (question.capability) {
    case "fs.apply_patch":
      return typeof input.patch === "string" ? patchChanges(input.patch, cwd) : [];
    case "fs.edit":
      return editChanges(input, cwd);
    case "fs.write":
      return writeChanges(input, cwd);
    case "fs.str_replace_editor":
      return input.command === "view" ? [] : editorChanges(input, undefined, cwd);
    case "fs.notebook_edit":
      return notebookChanges(input, undefined, cwd);
    default:
      return [];
  }
}

function parsed(subject: string): Fields | undefined {
  try {
    const value = JSON.parse(subject);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function change(shown: string, cwd: string, rest: Omit<FileChangeView, "path" | "displayPath">) {
  return { path: isAbsolute(shown) ? shown : join(cwd, shown), displayPath: shown, ...rest };
}

function bodyLines(text: string, mark: "+" | "-"): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((l) => `${mark}${l}`);
}

/** The sections of a `*** Begin Patch` envelope, each file's hunks as a unified diff body. */
function patchChanges(patch: string, cwd: string): FileChangeView[] {
  const kinds = { Add: "add", Delete: "delete", Update: "update" } as const;
  const files: Array<
    { shown: string; kind: FileChangeView["kind"]; moved?: string; body: string[] }
  > = [];
  for (const line of patch.replace(/\r\n/g, "\n").split("\n")) {
    const header = line.match(/^\*\*\* (Add|Delete|Update) File: (.+)$/);
    const current = files.at(-1);
    if (header) {
      files.push({
        shown: header[2].trim(),
        kind: kinds[header[1] as keyof typeof kinds],
        body: [],
      });
    } else if (current && line.startsWith("*** Move to: ")) {
      current.moved = line.slice("*** Move to: ".length).trim();
    } else if (current && !line.startsWith("***")) {
      current.body.push(line);
    }
  }
  return files.map((f) => {
    const body = f.body.join("\n").replace(/\n+$/, "");
    const diff = f.kind === "delete" || body === ""
      ? ""
      : f.kind === "add"
      ? `@@ -0,0 +1,${body.split("\n").length} @@\n${body}\n`
      : `${body.startsWith("@@") ? "" : "@@\n"}${body}\n`;
    const moved = f.moved ? { movedTo: isAbsolute(f.moved) ? f.moved : join(cwd, f.moved) } : {};
    const gone = f.kind === "delete" ? { summary: "the file is removed" } : {};
    return change(f.shown, cwd, { kind: f.kind, diff, ...moved, ...gone });
  });
}

/** `fs.edit`: each replacement as a hunk of the old text taken out and the new put in. */
function editChanges(input: Fields, cwd: string): FileChangeView[] {
  if (typeof input.path !== "string") return [];
  const edits = (Array.isArray(input.edits) ? input.edits : [input]) as Fields[];
  const diff = edits.map((e) =>
    [
      "@@",
      ...bodyLines(String(e.old_string ?? ""), "-"),
      ...bodyLines(String(e.new_string ?? ""), "+"),
    ].join("\n")
  ).join("\n");
  return [change(input.path, cwd, { kind: "update", diff: `${diff}\n` })];
}

/**
 * `fs.write`: the new text in full. Whether the file exists and what it holds is not looked up
 * (the path is the model's), so the change is an `add`, with no old text.
 */
function writeChanges(input: Fields, cwd: string): FileChangeView[] {
  if (typeof input.path !== "string" || typeof input.content !== "string") return [];
  const added = bodyLines(input.content, "+");
  const append = input.mode === "append";
  const diff = `@@ -0,0 +1,${added.length} @@\n${added.join("\n")}\n`;
  return [change(input.path, cwd, { kind: append ? "update" : "add", diff })];
}
