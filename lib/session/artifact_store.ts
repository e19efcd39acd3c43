/**
 * The session's artifact folder: `<home>/artifacts/<session id>/`, holding the files the model
 * saved with `artifact.record` (Qwen Code's `record_artifact`) and `artifacts.jsonl`, one line
 * per artifact (files and links). Written by this process, outside the sandbox: the tool reads
 * the workspace file through the session's file system and hands the bytes over.
 */
import { basename, extname, join } from "node:path";
import type { ArtifactEntry, ArtifactStore } from "../tools/types.ts";

/** The manifest's name inside the folder. */
const MANIFEST = "artifacts.jsonl";

/** The artifact folder of session `sessionId`. */
export function artifactFolder(home: string, sessionId: string): string {
  return join(home, "artifacts", sessionId);
}

/** The store of session `sessionId`; the folder is made on the first artifact. */
export function artifactStore(home: string, sessionId: string): ArtifactStore {
  const folder = artifactFolder(home, sessionId);
  const append = async (entry: ArtifactEntry) => {
    await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(join(folder, MANIFEST), JSON.stringify(entry) + "\n", {
      append: true,
      mode: 0o600,
    });
    return entry;
  };
  return {
    folder,
    async saveFile(entry, file) {
      await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
      const path = await freeName(folder, basename(file.source));
      await Deno.writeFile(path, file.bytes, { createNew: true, mode: 0o600 });
      return await append({ ...entry, path, source: file.source, bytes: file.bytes.length });
    },
    saveLink: append,
  };
}

/** The artifacts session `sessionId` recorded, oldest first; [] when it recorded none. */
export async function listArtifacts(home: string, sessionId: string): Promise<ArtifactEntry[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(join(artifactFolder(home, sessionId), MANIFEST));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
  return text.split("\n").filter((line) => line.trim()).flatMap((line) => {
    try {
      return [JSON.parse(line) as ArtifactEntry];
    } catch {
      return [];
    }
  });
}

/**
 * The lines `exec` ends with for the artifacts `session` recorded: the folder, then one
 * `title: path or url` line each; [] when none.
 */
export async function recordedArtifactLines(
  session: { home: string; id: string },
): Promise<string[]> {
  const entries = await listArtifacts(session.home, session.id);
  if (entries.length === 0) return [];
  return [
    `artifacts (${artifactFolder(session.home, session.id)}):`,
    ...entries.map((e) => `  ${e.title}: ${e.path ?? e.url ?? ""}`),
  ];
}

/** `name` in `folder`, or `name-2.ext`, `name-3.ext`, … when it is taken. */
async function freeName(folder: string, name: string): Promise<string> {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length) || "artifact";
  for (let n = 1;; n++) {
    const path = join(folder, n === 1 ? `${stem}${ext}` : `${stem}-${n}${ext}`);
    try {
      await Deno.lstat(path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return path;
      throw err;
    }
  }
}
