import * as z from "zod";
import { defineCapability } from "./capability.ts";
import type { RecordArtifactOutput } from "./types.ts";

export type { RecordArtifactOutput } from "./types.ts";

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

/**
 * Saves a workspace file (read through the session's file system, so the sandbox's read rules
 * apply) into the session's artifact folder, or records a link; exec lists them at its end.
 */
export const recordArtifact = defineCapability({
  id: "artifact.record",
  input: recordArtifactInput,
  mutates: false,
  async run(input, ctx): Promise<RecordArtifactOutput> {
    // The copy and its checks load on the first artifact, not at start-up.
    const { runRecordArtifact } = await import("./_record_artifact_run.ts");
    return await runRecordArtifact(input, ctx);
  },
});
