/** What `artifact.record` does, loaded on the first artifact (record_artifact.ts). */
import { ToolError } from "../errors.ts";
import type { ToolContext } from "./capability.ts";
import { fsOf } from "./_fs.ts";
import { resolvePath } from "./_paths.ts";
import type { RecordArtifactOutput } from "./types.ts";

/** Bytes of one saved file at most. */
const MAX_ARTIFACT_BYTES = 50 * 1024 * 1024;

/** `artifact.record`'s checked input (record_artifact.ts). */
interface ArtifactRequest {
  title: string;
  kind?: string;
  storage?: string;
  description?: string;
  path?: string;
  url?: string;
  managed_id?: string;
  mime_type?: string;
  metadata?: Record<string, string | number | boolean | null>;
}

/** Saves the file or records the link `input` names into the session's artifact folder. */
export async function runRecordArtifact(
  input: ArtifactRequest,
  ctx: ToolContext,
): Promise<RecordArtifactOutput> {
  const store = ctx.artifacts;
  if (!store) {
    throw new ToolError("This session has no artifact folder", "Mention the file in your answer");
  }
  if (input.storage === "managed" || input.managed_id !== undefined) {
    throw new ToolError(
      "Managed artifacts are not available here",
      'Save a file with storage "workspace" and its workspacePath, or a link with its url',
    );
  }
  const base = {
    title: input.title,
    kind: input.kind ?? (input.path === undefined ? "link" : "file"),
    ...(input.description ? { description: input.description } : {}),
    ...(input.mime_type ? { mimeType: input.mime_type } : {}),
    ...(input.metadata ? { metadata: input.metadata } : {}),
    recordedAt: new Date().toISOString(),
  };
  const entry = input.path !== undefined && input.storage !== "external_url"
    ? await store.saveFile(base, await readSource(input.path, ctx))
    : await store.saveLink({ ...base, url: linkOf(input.url) });
  const where = entry.path ? `saved to ${entry.path}` : `recorded as a link to ${entry.url}`;
  return { ...entry, folder: store.folder, output: `Artifact "${entry.title}" ${where}.` };
}

async function readSource(
  path: string,
  ctx: ToolContext,
): Promise<{ source: string; bytes: Uint8Array }> {
  const source = resolvePath(ctx.cwd, path);
  const fs = fsOf(ctx);
  const stat = await fs.stat(source).catch(() => undefined);
  if (!stat?.isFile) {
    throw new ToolError(`Cannot save "${path}": not a file in the workspace`, "Give a file's path");
  }
  if (stat.size > MAX_ARTIFACT_BYTES) {
    throw new ToolError(`Cannot save "${path}": it is over 50 MiB`, "Record a link instead");
  }
  return { source, bytes: await fs.readFile(source) };
}

function linkOf(url: string | undefined): string {
  if (url === undefined) {
    throw new ToolError(
      "Nothing to record: give workspacePath (a file) or url (a link)",
      'Pass workspacePath with storage "workspace", or url with storage "external_url"',
    );
  }
  if (!/^https?:\/\/\S+$/i.test(url)) {
    throw new ToolError(`Cannot record "${url}": not an http or https URL`, "Pass a full URL");
  }
  return url;
}
