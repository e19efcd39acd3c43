/**
 * The contents checkpoints keep: one gzip file per distinct content, named by its SHA-256, so a
 * file that stays the same over many turns is kept once. A content read back is checked against
 * its name: a damaged or swapped file is never written into the workspace.
 */
import { join } from "node:path";
import { sha256Hex } from "../../tools/_edit_history.ts";

/** Where a session's checkpoint contents are kept. */
export interface BlobStore {
  readonly dir: string;
  /** Keeps `bytes` (whose SHA-256 is `sha`) unless they are kept already. */
  put(sha: string, bytes: Uint8Array): Promise<void>;
  /** The content named `sha`; throws when it is missing or does not match its name. */
  get(sha: string): Promise<Uint8Array>;
}

/** The store in folder `dir` (made on the first `put`, private to the user). */
export function blobStore(dir: string): BlobStore {
  const pathOf = (sha: string) => join(dir, "blobs", sha.slice(0, 2), `${sha}.gz`);
  return {
    dir,
    async put(sha, bytes) {
      const path = pathOf(sha);
      if (await Deno.lstat(path).then(() => true, () => false)) return;
      const folder = join(dir, "blobs", sha.slice(0, 2));
      await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
      const temp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
      try {
        await Deno.writeFile(temp, await gzip(bytes), { mode: 0o600, createNew: true });
        await Deno.rename(temp, path);
      } catch (error) {
        await Deno.remove(temp).catch(() => {});
        throw error;
      }
    },
    async get(sha) {
      const path = pathOf(sha);
      let bytes: Uint8Array;
      try {
        bytes = await gunzip(await Deno.readFile(path));
      } catch (error) {
        throw new Error(`the kept copy "${path}" cannot be read: ${(error as Error).message}`);
      }
      if (await sha256Hex(bytes) !== sha) {
        throw new Error(`the kept copy "${path}" is damaged (its content does not match its name)`);
      }
      return bytes;
    },
  };
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream()
    .pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
