/**
 * A saved session exported as a document (`/export`, `interpreter export`): Markdown, a
 * self-contained HTML page, the session file's raw records, or an ATIF trajectory from the same
 * trajectory writer `exec --trajectory` uses. The session is found as `resume` finds it.
 */
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../../errors.ts";
import { resolveCall } from "../../harness/call.ts";
import { withoutContext } from "../../harness/context.ts";
import { loadHarness } from "../../harness/load.ts";
import type { Harness } from "../../harness/types.ts";
import { readSession, type SavedSession } from "../../store/mod.ts";
import { trajectoryOf } from "../../trajectory/atif.ts";
import { findResumable, type FoundSession, settingsInUse } from "../resume.ts";
import { savedSessionName } from "../saved_sessions.ts";
import type { ResumeTarget } from "../types.ts";
import { type CallReader, exportDoc } from "./conversation.ts";
import { htmlOf } from "./html.ts";
import { markdownOf } from "./markdown.ts";

/** What a session can be exported as. */
export type ExportFormat = "md" | "html" | "jsonl" | "atif";

/** The formats, in the order help lists them. */
const EXPORT_FORMATS: readonly ExportFormat[] = ["md", "html", "jsonl", "atif"];

/** The file extension each format is written with. */
export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = {
  md: ".md",
  html: ".html",
  jsonl: ".jsonl",
  atif: ".json",
};

const BUILTIN_HARNESSES = fileURLToPath(new URL("../../../harnesses", import.meta.url));

/** The format `text` names (`markdown` and `json` too); a `UsageError` naming the choices. */
export function exportFormatOf(text: string): ExportFormat {
  const name = text.trim().toLowerCase();
  const aliases: Record<string, ExportFormat> = { markdown: "md", htm: "html", json: "atif" };
  const format = aliases[name] ?? name;
  if ((EXPORT_FORMATS as readonly string[]).includes(format)) return format as ExportFormat;
  throw new UsageError(`Unknown export format "${text}"`, {
    hint: `Use one of ${EXPORT_FORMATS.join(", ")}`,
  });
}

/** The format a file's extension implies (`.md`, `.html`, `.jsonl`, `.json`); else undefined. */
export function formatOfFile(path: string): ExportFormat | undefined {
  const ext = extname(path).toLowerCase();
  const byExt: Record<string, ExportFormat> = {
    ".md": "md",
    ".markdown": "md",
    ".html": "html",
    ".htm": "html",
    ".jsonl": "jsonl",
    ".json": "atif",
  };
  return byExt[ext];
}

/** The saved session `target` names, looked up as `resume` does (any front end's sessions). */
export function findSessionToExport(
  target: ResumeTarget,
  lookup: { cwd: string; home: string },
): Promise<FoundSession> {
  return findResumable(target, { ...lookup, startCommand: "interpreter" });
}

/** The session file `file` as `format`. */
export async function exportSession(
  file: string,
  format: ExportFormat,
  opts: { home: string },
): Promise<string> {
  if (format === "jsonl") return await rawRecords(file);
  const saved = await readSession(file);
  if (format === "atif") {
    const { withSavedSubagents } = await import("../agent_trajectory.ts");
    const trajectory = await withSavedSubagents(file, trajectoryFor(saved));
    return `${JSON.stringify(trajectory, null, 2)}\n`;
  }
  const readCall = callReader(await harnessesOf(saved, opts.home));
  const inUse = settingsInUse(saved);
  const name = await savedSessionName(opts.home, saved.header.id).catch(() => undefined);
  const { header } = saved;
  const doc = exportDoc(saved.events, {
    meta: {
      sessionId: header.id,
      ...(name ? { name } : {}),
      model: inUse.model,
      provider: inUse.provider,
      cwd: header.cwd,
      created: header.created,
    },
    harness: header.harness,
    readCall,
  });
  return format === "html" ? htmlOf(doc) : markdownOf(doc);
}

/** The session file's records as written (read through `readSession`'s checks first). */
async function rawRecords(file: string): Promise<string> {
  await readSession(file);
  return await Deno.readTextFile(file);
}

/** The history the model continues from, as `exec --trajectory` writes it. */
function trajectoryFor(saved: SavedSession): ReturnType<typeof trajectoryOf> {
  const inUse = settingsInUse(saved);
  return trajectoryOf(withoutContext(saved.history), {
    sessionId: saved.header.id,
    agent: {
      name: "interpreter",
      version: saved.header.interpreterVersion,
      modelName: inUse.model,
      extra: { provider: inUse.provider, harness: inUse.harness },
    },
    ...(saved.notes.length ? { notes: saved.notes.join("; ") } : {}),
  });
}

/** The harnesses the session used, by id; one that no longer loads is left out. */
async function harnessesOf(saved: SavedSession, home: string): Promise<Map<string, Harness>> {
  const ids = new Set([saved.header.harness]);
  for (const e of saved.events) if (e.type === "harness_switch") ids.add(e.harness);
  const dirs = { builtinDir: BUILTIN_HARNESSES, userDir: join(home, "harnesses") };
  const loaded = new Map<string, Harness>();
  for (const id of ids) {
    const harness = await loadHarness(id, dirs).catch(() => undefined);
    if (harness) loaded.set(id, harness);
  }
  return loaded;
}

/** Reads a call by its harness's tool; a call it cannot read is read by its arguments alone. */
function callReader(harnesses: Map<string, Harness>): CallReader {
  return (call, id) => {
    const harness = harnesses.get(id);
    if (!harness) return {};
    try {
      const { tool, input } = resolveCall(harness, call);
      return { capability: tool.capability, input };
    } catch {
      return {};
    }
  };
}
