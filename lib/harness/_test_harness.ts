import { dirname, join } from "node:path";
import { loadHarnessDir } from "./load.ts";
import type { Harness } from "./types.ts";

/** A valid minimal spec for the `t` harness; tests break one key at a time. Test helper. */
export const BASE_SPEC = `
id = "t"
label = "Test"
system_prompt = "prompts/system.md"
wire_apis = ["chat"]
reasoning_replay = "none"
error_template = "Error: {message}\\n{hint}"
unknown_tool_template = "No tool named {name}"

[[tools]]
declaration = "tools/run.json"
capability = "shell.run"
args = { command = "command", dir = "cwd", note = "" }
result = { template = "exit {exit_code}\\n{output}", empty_output = "(no output)" }
`;

/** Files of the `t` harness besides its spec. Test helper. */
export const BASE_FILES: Record<string, string> = {
  "prompts/system.md": "Work in {{cwd}} on {{platform}}.",
  "tools/run.json": JSON.stringify({
    name: "run",
    description: "Run a command.",
    parameters: {
      type: "object",
      properties: {
        command: { type: "string" },
        dir: { type: "string" },
        note: { type: "string" },
      },
      required: ["command"],
      additionalProperties: false,
    },
  }),
};

/** Writes harness folder `root/<id>` with `harness.toml` = `spec` plus `files`. Test helper. */
export async function writeHarness(
  root: string,
  id: string,
  spec: string,
  files: Record<string, string> = BASE_FILES,
): Promise<string> {
  const dir = join(root, id);
  for (const [path, text] of Object.entries({ "harness.toml": spec, ...files })) {
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  return dir;
}

/**
 * Writes harness `id` into a temp dir, loads it with `loadHarnessDir()` and removes the dir,
 * whether loading works or throws. Test helper.
 */
export async function loadTestHarness(
  spec: string,
  files: Record<string, string> = BASE_FILES,
  id = "t",
): Promise<Harness> {
  const root = await Deno.makeTempDir({ prefix: "oi_harness_" });
  try {
    return await loadHarnessDir(await writeHarness(root, id, spec, files));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
