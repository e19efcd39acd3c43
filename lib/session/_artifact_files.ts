/** Writing and reading the artifact folder (artifact_store.ts), loaded on first use. */
import { basename, extname, join } from "node:path";
import type { ArtifactEntry } from "../tools/types.ts";

/** The manifest's name inside the folder. */
const MANIFEST = "artifacts.jsonl";

/** Adds `entry` to the folder's manifest, making the folder when needed. */
export async function appendArtifact(folder: string, entry: ArtifactEntry): Promise<ArtifactEntry> {
  await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
  await Deno.writeTextFile(join(folder, MANIFEST), JSON.stringify(entry) + "\n", {
    append: true,
    mode: 0o600,
  });
  return entry;
}

/** Copies `file` into `folder` under a free name and records it. */
export async function saveArtifactFile(
  folder: string,
  entry: Omit<ArtifactEntry, "path" | "source">,
  file: { source: string; bytes: Uint8Array },
): Promise<ArtifactEntry> {
  await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
  const path = await freeName(folder, basename(file.source));
  await Deno.writeFile(path, file.bytes, { createNew: true, mode: 0o600 });
  return await appendArtifact(folder, {
    ...entry,
    path,
    source: file.source,
    bytes: file.bytes.length,
  });
}

/** The artifacts recorded in `folder`, oldest first; [] when none. */
export async function listArtifacts(folder: string): Promise<ArtifactEntry[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(join(folder, MANIFEST));
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

/** `name` in `folder`, or `name-2.ext`, `name-3.ext`, … when it is taken. */
async function freeName(folder: string, name: string): Promise<string> {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length) || "artifact";
  for (let n = 1;; n++) {
    const path = join(folder, n === 1 ? `${stem}${ext}` : `${stem}-${n}${ext}`);
    // The manifest's name stays the manifest's, even before the first entry makes it.
    if (basename(path) === MANIFEST) continue;
    try {
      await Deno.lstat(path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return path;
      throw err;
    }
  }
}
