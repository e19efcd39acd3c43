/**
 * A harness's data hash: sha256 over every file of its folder and of the shared texts beside it
 * (`_shared/`), by relative path and contents. Two runs with the same hash presented the model
 * the same prompts, tools and texts, so eval results stay comparable across versions.
 */
import { dirname, join, relative } from "node:path";

/** The hex sha256 of the harness in `dir`; undefined when the folder cannot be read. */
export async function harnessDataHash(dir: string): Promise<string | undefined> {
  try {
    const files = [
      ...await filesUnder(dir, dir),
      ...await filesUnder(join(dirname(dir), "_shared"), dirname(dir)).catch(() => []),
    ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const encoder = new TextEncoder();
    const parts: Uint8Array[] = [];
    for (const file of files) {
      parts.push(
        encoder.encode(`${file.name}\0`),
        await Deno.readFile(file.path),
        new Uint8Array(1),
      );
    }
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
      all.set(part, at);
      at += part.length;
    }
    const digest = await crypto.subtle.digest("SHA-256", all);
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied) {
      return undefined;
    }
    throw error;
  }
}

async function filesUnder(dir: string, base: string): Promise<{ name: string; path: string }[]> {
  const out: { name: string; path: string }[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await filesUnder(path, base));
    else if (entry.isFile) out.push({ name: relative(base, path).replaceAll("\\", "/"), path });
  }
  return out;
}
