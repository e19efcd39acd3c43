import assert from "node:assert/strict";
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { predictionLines, writePredictions } from "./predictions.ts";

const RUNS = [
  {
    task: "django__django-11099",
    harness: "claude-code",
    model: "anthropic/claude-sonnet-4-5",
    patch:
      'diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a = "old"\n+a = "new\\t"\n',
  },
  { task: "astropy__astropy-12907", harness: "native", model: "gpt-5", patch: "" },
];

Deno.test("predictionLines() writes one JSON object a line with exactly the three keys", () => {
  const text = predictionLines(RUNS);
  assert.ok(text.endsWith("\n"));
  const lines = text.trimEnd().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(lines, [
    {
      instance_id: "django__django-11099",
      model_name_or_path: "interpreter__claude-code__anthropic__claude-sonnet-4-5",
      model_patch: RUNS[0].patch,
    },
    {
      instance_id: "astropy__astropy-12907",
      model_name_or_path: "interpreter__native__gpt-5",
      model_patch: "",
    },
  ]);
  for (const line of lines) {
    assert.deepEqual(Object.keys(line), ["instance_id", "model_name_or_path", "model_patch"]);
  }
  assert.equal(predictionLines([]), "");
});

Deno.test("writePredictions() replaces the file whole and leaves no temp file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "predictions_" });
  try {
    const file = join(dir, "out", "predictions.jsonl");
    await writePredictions(file, [RUNS[1]]);
    await writePredictions(file, RUNS);
    const text = await Deno.readTextFile(file);
    assert.equal(text, predictionLines(RUNS));
    assert.equal(JSON.parse(text.split("\n")[0]).model_patch, RUNS[0].patch);
    const names = await Array.fromAsync(Deno.readDir(join(dir, "out")), (e) => e.name);
    assert.deepEqual(names, ["predictions.jsonl"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writePredictions() fails with a UserError naming a file it cannot write", async () => {
  const dir = await Deno.makeTempDir({ prefix: "predictions_" });
  try {
    await Deno.writeTextFile(join(dir, "file"), "");
    const target = join(dir, "file", "predictions.jsonl");
    await assert.rejects(writePredictions(target, RUNS), (error) => {
      assert.ok(error instanceof UserError);
      assert.match(
        error.message,
        /^Cannot write the predictions to ".*file\/predictions\.jsonl": /,
      );
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
