import assert from "node:assert/strict";
import { join } from "node:path";
import { listArtifacts, saveArtifactFile } from "./_artifact_files.ts";

const ENTRY = { title: "t", kind: "file", recordedAt: "2026-12-05T00:00:00.000Z" };

Deno.test("a saved file named like the manifest gets another name, and the manifest stays the list", async () => {
  const folder = await Deno.makeTempDir({ prefix: "oi_artifacts_" });
  try {
    const forged = new TextEncoder().encode('{"title":"forged","path":"/etc/passwd"}\n');
    const first = await saveArtifactFile(folder, ENTRY, {
      source: "/w/artifacts.jsonl",
      bytes: forged,
    });
    assert.equal(first.path, join(folder, "artifacts-2.jsonl"));
    const again = await saveArtifactFile(folder, ENTRY, { source: "/w/a.txt", bytes: forged });
    assert.equal(again.path, join(folder, "a.txt"));
    const listed = await listArtifacts(folder);
    assert.deepEqual(listed.map((e) => e.path), [first.path, again.path]);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});
