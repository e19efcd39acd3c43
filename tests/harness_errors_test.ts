import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { ToolError } from "../lib/errors.ts";
import { renderToolError, resolveCall } from "../lib/harness/call.ts";
import { listHarnessIds, loadHarness } from "../lib/harness/load.ts";
import type { Harness } from "../lib/harness/types.ts";

const dirs = { builtinDir: fileURLToPath(new URL("../harnesses", import.meta.url)) };

/** The text the model sees for a call that `resolveCall` rejects. */
function rejection(h: Harness, call: { name: string; args: unknown; rawArgs?: string }): string {
  try {
    resolveCall(h, call);
  } catch (error) {
    assert.ok(error instanceof ToolError, `expected a ToolError, got ${error}`);
    return renderToolError(h, error);
  }
  assert.fail(`"${call.name}" with ${JSON.stringify(call.args)} was accepted`);
}

/** The error template with its message line filled by `message` (the hint is not checked). */
function shaped(h: Harness, message: string): RegExp {
  const [before, after] = h.errorTemplate.split("{message}");
  const prefix = before.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const suffix = (after ?? "").split("\n")[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${prefix}${message}[\\s\\S]*${suffix}`);
}

for (const id of await listHarnessIds(dirs)) {
  const harness = await loadHarness(id, dirs);
  if (harness.protocol || harness.tools.length === 0) continue;
  const tool = harness.tools.find((t) =>
    (t.declaration.parameters.required as string[] ?? []).length
  )!;

  Deno.test(`${id}: an unknown tool gets the harness's own error shape`, () => {
    const unknown = harness.unknownToolTemplate.replace("{name}", "NoSuchTool");
    const text = rejection(harness, { name: "NoSuchTool", args: {} });
    assert.match(text, shaped(harness, unknown.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  });

  Deno.test(`${id}: arguments of the wrong type name the wire argument in the harness's shape`, () => {
    const required = tool.declaration.parameters.required as string[];
    const args = Object.fromEntries(required.map((name) => [name, { x: 1 }]));
    const text = rejection(harness, { name: tool.declaration.name, args });
    const names = required.join("|");
    assert.match(
      text,
      shaped(harness, `Invalid arguments for "${tool.declaration.name}": .*(${names})`),
    );
  });

  Deno.test(`${id}: arguments that are not JSON are reported, not thrown`, () => {
    const text = rejection(harness, {
      name: tool.declaration.name,
      args: undefined,
      rawArgs: "{oops",
    });
    assert.match(
      text,
      shaped(harness, `Invalid arguments for "${tool.declaration.name}": .*not valid JSON`),
    );
  });
}
