/**
 * No capability touches the disk except through the session's file system (`fsOf(ctx)`) or its
 * scratch space (`scratchOf(ctx)`): every non-test module of lib/tools is scanned for Deno's file
 * APIs, `node:fs` and the in-process file system. There is no allowlist of files: the only list
 * is of Deno members that are not file APIs (errors, processes, platform facts), and a member
 * missing from it fails the scan, so a new use of Deno has to be looked at, not slipped in.
 */
import type { ToolContext } from "./capability.ts";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { fsRead } from "./fs_read.ts";
import { shellStart } from "./shell_background.ts";
import { shellRun } from "./shell_run.ts";
import { strReplaceEditor } from "./str_replace_editor.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";

/** Deno's file APIs (each also as `...Sync`), named in the failure message. */
const FILE_APIS = [
  "readFile",
  "readTextFile",
  "writeFile",
  "writeTextFile",
  "remove",
  "rename",
  "stat",
  "lstat",
  "readDir",
  "mkdir",
  "open",
  "create",
  "realPath",
  "symlink",
  "link",
  "chmod",
  "chown",
  "copyFile",
  "truncate",
  "makeTempDir",
  "makeTempFile",
  "utime",
  "readLink",
  "watchFs",
];

/** Deno members a capability may use: none of them reads or writes a file. */
const NON_FILE_MEMBERS = new Set([
  "errors", // error classes, for instanceof checks on what the file system throws
  "build", // the OS, for process-group handling
  "pid", // this process's id, for the tmux watchdog
  "Command", // spawning commands (through the sandbox)
  "ChildProcess",
  "CommandOutput",
  "CommandStatus",
  "Signal",
  "kill", // signals to a job's process group
  "createHttpClient", // web fetch's client pinned to a checked address (certificates as text)
]);

/** The problems in one module's source; empty when it only uses the seams. */
function directFsUses(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/\bDeno\b(\s*\.\s*([A-Za-z_$][\w$]*))?/g)) {
    const member = m[2];
    const line = source.slice(0, m.index).split("\n").length;
    if (member === undefined) {
      found.push(`line ${line}: "Deno" used other than as Deno.<member>`);
    } else if (FILE_APIS.includes(member.replace(/Sync$/, ""))) {
      found.push(`line ${line}: Deno.${member} is a file API; use fsOf(ctx) or scratchOf(ctx)`);
    } else if (!NON_FILE_MEMBERS.has(member)) {
      found.push(`line ${line}: Deno.${member} is not known to be free of file access`);
    }
  }
  for (const m of source.matchAll(/["'](node:)?fs(\/promises)?["']|\binProcessFs\b/g)) {
    const line = source.slice(0, m.index).split("\n").length;
    found.push(`line ${line}: ${m[0]} reaches the disk without the session's file system`);
  }
  return found;
}

Deno.test("no module of lib/tools uses Deno's file APIs, node:fs or inProcessFs", async () => {
  const dir = fileURLToPath(new URL(".", import.meta.url));
  const modules: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const isTest = e.name.endsWith("_test.ts") || e.name.startsWith("_test_");
    if (e.isFile && e.name.endsWith(".ts") && !isTest) modules.push(e.name);
  }
  assert.ok(modules.includes("str_replace_editor.ts") && modules.length > 20, "scans them all");
  const problems = [];
  for (const name of modules.sort()) {
    const uses = directFsUses(await Deno.readTextFile(`${dir}${name}`));
    problems.push(...uses.map((u) => `${name} ${u}`));
  }
  assert.deepEqual(problems, []);
});

Deno.test("directFsUses() catches each way of reaching the disk", () => {
  const bad = [
    "await Deno.readTextFile(path);",
    "Deno.removeSync(path)",
    "await Deno . remove(path)",
    "for await (const e of Deno.readDir(dir)) {}",
    "const { writeFile } = Deno;",
    'const f = Deno["open"];',
    "const d = globalThis.Deno;",
    "Deno.fsync(rid)",
    'import { readFile } from "node:fs/promises";',
    'import fs from "fs";',
    'import { inProcessFs } from "../../sandbox/file_system.ts";',
  ];
  for (const source of bad) assert.equal(directFsUses(source).length, 1, source);
  const fine = "if (err instanceof Deno.errors.NotFound) new Deno.Command('rg', { env });";
  assert.deepEqual(directFsUses(fine), []);
  for (const api of FILE_APIS) assert.ok(!NON_FILE_MEMBERS.has(api), api);
});

Deno.test("a tool on a context without a file system or scratch space fails, never falls back", async () => {
  // A JavaScript caller can still leave `fs` out, which the type no longer allows.
  const ctx = {
    cwd: Deno.cwd(),
    signal: new AbortController().signal,
    env: {},
    state: new Map(),
  } as unknown as ToolContext;
  const noFs = /TypeError: Internal error: the tool context has no file system \(ctx\.fs\)$/;
  await assert.rejects(fsRead.run({ path: "deno.json" }, ctx), noFs);
  await assert.rejects(strReplaceEditor.run({ command: "view", path: "." }, ctx), noFs);
  await assert.rejects(shellRun.run({ command: "true" }, ctx), noFs);
  const noScratch =
    /TypeError: Internal error: the tool context has no scratch space \(ctx\.scratch\)$/;
  await assert.rejects(shellStart.run({ command: "true" }, { ...ctx, fs: inProcessFs }), noScratch);
});
