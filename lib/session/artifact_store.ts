/**
 * The session's artifact folder: `<home>/artifacts/<session id>/`, holding the files the model
 * saved with `artifact.record` (Qwen Code's `record_artifact`) and `artifacts.jsonl`, one line
 * per artifact (files and links). Written by this process, outside the sandbox: the tool reads
 * the workspace file through the session's file system and hands the bytes over. The writing
 * and listing (`_artifact_files.ts`) load with the first artifact or listing.
 */
import { join } from "node:path";
import type { ArtifactStore } from "../tools/types.ts";

/** The artifact folder of session `sessionId`. */
export function artifactFolder(home: string, sessionId: string): string {
  return join(home, "artifacts", sessionId);
}

/** The store of session `sessionId`; the folder is made on the first artifact. */
export function artifactStore(home: string, sessionId: string): ArtifactStore {
  const folder = artifactFolder(home, sessionId);
  const files = () => import("./_artifact_files.ts");
  return {
    folder,
    saveFile: async (entry, file) => (await files()).saveArtifactFile(folder, entry, file),
    saveLink: async (entry) => (await files()).appendArtifact(folder, entry),
  };
}

/**
 * The lines `exec` ends with for the artifacts `session` recorded: the folder, then one
 * `title: path or url` line each; [] when none.
 */
export async function recordedArtifactLines(
  session: { home: string; id: string },
): Promise<string[]> {
  const folder = artifactFolder(session.home, session.id);
  const entries = await (await import("./_artifact_files.ts")).listArtifacts(folder);
  if (entries.length === 0) return [];
  return [
    `artifacts (${folder}):`,
    ...entries.map((e) => `  ${e.title}: ${e.path ?? e.url ?? ""}`),
  ];
}
