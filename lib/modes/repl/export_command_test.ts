import assert from "node:assert/strict";
import { UsageError } from "../../errors.ts";
import { exportArgs } from "./export_command.ts";

Deno.test("exportArgs() reads a format flag and one file path, spaces kept", () => {
  assert.deepEqual(exportArgs(""), {});
  assert.deepEqual(exportArgs("notes.md"), { file: "notes.md" });
  assert.deepEqual(exportArgs("--format html my page.html"), {
    format: "html",
    file: "my page.html",
  });
  assert.deepEqual(exportArgs("-f json"), { format: "atif" });
  assert.deepEqual(exportArgs("--format=markdown"), { format: "md" });
});

Deno.test("exportArgs() names a bad format or option and the usage", () => {
  assert.throws(() => exportArgs("--format pdf"), (e: Error) => {
    assert.ok(e instanceof UsageError);
    assert.equal(e.message, 'Unknown export format "pdf"');
    assert.equal(e.hint, "Use one of md, html, jsonl, atif");
    return true;
  });
  assert.throws(() => exportArgs("--format"), /--format needs a format/);
  assert.throws(() => exportArgs("--pdf out"), /Unknown \/export option "--pdf"/);
});
