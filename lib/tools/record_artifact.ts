import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability, type ToolContext } from "./capability.ts";
import { fsOf } from "./_fs.ts";
import type { ArtifactEntry } from "./types.ts";
import { resolvePath } from "./_paths.ts";

/** Bytes of one saved file at most. */
const MAX_ARTIFACT_BYTES = 50 * 1024 * 1024;

const ARTIFACT_KINDS = [
  "file",
  "link",
  "html",
  "image",
  "video",
  "audio",
  "pdf",
  "notebook",
  "document",
  "other",
] as const;

/**
 * Input of `artifact.record`. Harness mapping: Qwen `record_artifact` {title, kind, storage,
 * description, workspacePath → path, url, mimeType, sizeBytes, metadata; managedId is refused}.
 */
export const recordArtifactInput = z.object({
  title: z.string().trim().min(1, "Give the artifact a title").max(200),
  kind: z.enum(ARTIFACT_KINDS).optional(),
  storage: z.enum(["workspace", "external_url", "managed"]).optional(),
  description: z.string().max(1000).optional(),
  path: z.string().min(1).optional().describe("A file in the workspace to save"),
  url: z.string().optional().describe("An http(s) link to record instead of a file"),
  managed_id: z.string().optional(),
  mime_type: z.string().optional(),
  size_bytes: z.int().min(0).optional(),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
    .optional(),
});

/** Result of `artifact.record`. */
export interface RecordArtifactOutput extends ArtifactEntry {
  /** The session's artifact folder. */
  folder: string;
  /** One sentence for the model: what was saved where. */
  output: string;
}

/**
 * Saves a workspace file (read through the session's file system, so the sandbox's read rules
 * apply) into the session's artifact folder, or records a link; exec lists them at its end.
 */
export const recordArtifact = defineCapability({
  id: "artifact.record",
  input: recordArtifactInput,
  mutates: false,
  async run(input, ctx): Promise<RecordArtifactOutput> {
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
  },
});

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
