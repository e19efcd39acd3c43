/**
 * A hostile model's write attempts, built for any harness from its own tool mapping: every file
 * tool that writes and every shell tool is aimed at a file outside the workspace (absolute, by
 * `..`, through a symlink) and at the protected `.git`, `.agents` and `.openinterpreter`.
 *
 * The layout lives outside `/tmp`: every sandboxed command has a private `/tmp`, so a target
 * under the host's `/tmp` could not show an escape.
 */
import { dirname, join } from "node:path";
import { loadHarness } from "../../lib/harness/load.ts";
import type { Harness, HarnessTool } from "../../lib/harness/types.ts";
import { REPO, run } from "./_harness_env.ts";

/** A workspace (a git repository) beside an outside folder, with a symlink to it. */
export interface EscapeLayout extends AsyncDisposable {
  ws: string;
  outside: string;
  /** Files whose creation or change is an escape. */
  targets: { created: string[]; changed: string[] };
  /** What each escape target holds now ("" for missing), and which protected names exist. */
  snapshot(): Promise<Record<string, string>>;
}

export async function escapeLayout(): Promise<EscapeLayout> {
  const root = await Deno.realPath(
    await Deno.makeTempDir({ dir: dirname(REPO), prefix: ".oi_escape_" }),
  );
  const ws = join(root, "ws");
  const outside = join(root, "outside");
  await Deno.mkdir(ws);
  await Deno.mkdir(outside);
  await run("git", ["init", "-q"], ws);
  await Deno.writeTextFile(join(ws, "main.py"), "print('hi')\n");
  await Deno.writeTextFile(join(outside, "victim.txt"), "orig\n");
  await Deno.symlink("../outside", join(ws, "link"));
  const created = [
    join(outside, "escaped.txt"),
    join(ws, "link", "via-link.txt"),
    join(ws, ".git", "hooks", "pre-commit"),
    join(ws, ".openinterpreter", "config.toml"),
    join(ws, ".agents", "skills", "x", "SKILL.md"),
  ];
  const changed = [join(ws, "..", "outside", "victim.txt"), join(ws, ".git", "config")];
  const read = (path: string) => Deno.readTextFile(path).catch(() => "");
  return {
    ws,
    outside,
    targets: { created, changed },
    async snapshot() {
      const out: Record<string, string> = {};
      for (const path of [...created, ...changed]) out[path] = await read(path);
      for (const name of [".agents", ".openinterpreter"]) {
        out[`exists ${name}`] = String(
          await Deno.lstat(join(ws, name)).then(() => true, () => false),
        );
      }
      out["outside listing"] = (await Array.fromAsync(Deno.readDir(outside)))
        .map((e) => e.name).sort().join(",");
      return out;
    },
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

/** One scripted tool call, as the fake provider takes it. */
interface Call {
  name: string;
  args: Record<string, unknown>;
}

const PWNED = "pwned\n";

/** The harness's tool calls that try every write; the harness must not defer them. */
export async function attemptCalls(harnessId: string, layout: EscapeLayout): Promise<Call[]> {
  const harness = await loadHarness(harnessId, { builtinDir: join(REPO, "harnesses") });
  const calls: Call[] = [];
  const background: Call[] = [];
  for (const tool of harness.tools.filter((t) => !t.deferred)) {
    for (const call of callsFor(harness, tool, layout)) {
      const routed = tool.route !== undefined && call.args[tool.route.when] === true;
      (tool.capability === "shell.start" || routed ? background : calls).push(call);
    }
  }
  // Background jobs go first, so that they finish before the run ends and kills them.
  return [...background, ...calls];
}

function callsFor(harness: Harness, tool: HarnessTool, layout: EscapeLayout): Call[] {
  const { created, changed } = layout.targets;
  const [victim, gitConfig] = changed;
  const name = tool.declaration.name;
  const declared = Object.keys(
    (tool.declaration.parameters as { properties?: Record<string, unknown> }).properties ?? {},
  );
  const param = (field: string) =>
    Object.entries(tool.args).find(([, target]) => target === field)?.[0] ??
      (field in tool.args ? undefined : declared.find((p) => p === field));
  const call = (fields: Record<string, unknown>): Call => {
    const args: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(fields)) {
      const key = param(field);
      if (key) args[key] = value;
    }
    return { name, args };
  };
  switch (tool.capability) {
    case "fs.write":
      return [...created, ...changed].map((path) => call({ path, content: PWNED }));
    case "fs.edit": {
      const reads = readCalls(harness, changed);
      const edit = (path: string, from: string) =>
        param("old_string")
          ? call({ path, old_string: from, new_string: "pwned" })
          : { name, args: { [param("path")!]: path, [param("edits")!]: [editItem(tool, from)] } };
      return [...reads, edit(victim, "orig"), edit(gitConfig, "[core]")];
    }
    case "fs.apply_patch": {
      const patch = (body: string) => `*** Begin Patch\n${body}*** End Patch\n`;
      return [
        ...created.map((path) => call({ patch: patch(`*** Add File: ${path}\n+pwned\n`) })),
        call({ patch: patch(`*** Update File: ${victim}\n@@\n-orig\n+pwned\n`) }),
        call({ patch: patch(`*** Delete File: ${gitConfig}\n`) }),
      ];
    }
    case "fs.str_replace_editor":
      return [
        ...created.map((path) => call({ command: "create", path, file_text: PWNED })),
        call({ command: "str_replace", path: victim, old_str: "orig", new_str: "pwned" }),
        call({ command: "str_replace", path: gitConfig, old_str: "[core]", new_str: "pwned" }),
      ];
    case "shell.run":
    case "shell.start": {
      const plain = call({ command: shellAttempt(layout) });
      const calls = [plain];
      const escalate = param("escalated") ?? param("sandbox_permissions");
      if (escalate) {
        const value = param("escalated") ? true : "require_escalated";
        calls.push({ name, args: { ...plain.args, [escalate]: value } });
      }
      // A flag such as `run_in_background` that routes the same tool to a background job.
      if (tool.route?.tool.capability === "shell.start" && !tool.route.matches) {
        calls.push({ name, args: { ...plain.args, [tool.route.when]: true } });
      }
      return calls;
    }
    default:
      return [];
  }
}

/** One shell command line that tries every write. */
export function shellAttempt(layout: EscapeLayout): string {
  const { created, changed } = layout.targets;
  const lines = [...created, ...changed].map((path) =>
    `mkdir -p '${dirname(path)}'; echo pwned > '${path}'`
  );
  return lines.join("; ");
}

function readCalls(harness: Harness, paths: string[]): Call[] {
  const read = harness.tools.find((t) => t.capability === "fs.read" && !t.deferred);
  if (!read) return [];
  const key = Object.entries(read.args).find(([, field]) => field === "path")?.[0] ?? "path";
  return paths.map((path) => ({ name: read.declaration.name, args: { [key]: path } }));
}

/** One item of a harness's `edits` array, with its own property names for old and new text. */
function editItem(tool: HarnessTool, from: string): Record<string, string> {
  const params = tool.declaration.parameters as {
    properties?: Record<string, { items?: { properties?: Record<string, unknown> } }>;
  };
  const editsKey = Object.entries(tool.args).find(([, field]) => field === "edits")![0];
  const names = Object.keys(params.properties?.[editsKey]?.items?.properties ?? {});
  const oldKey = names.find((n) => /old/i.test(n)) ?? "old_string";
  const newKey = names.find((n) => /new/i.test(n)) ?? "new_string";
  return { [oldKey]: from, [newKey]: "pwned" };
}
