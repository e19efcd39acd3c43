/**
 * The bundle `scripts/interpreter` runs (scripts/bundle.ts): built once, reused while the sources
 * are unchanged, rebuilt when their hash changes, and a failed build falls back to the sources with
 * one note. Each case works on a copy of the checkout with its own cache folder.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundledProgram } from "../sandbox/bundled_program.ts";
import { need } from "../sandbox/_test_requires.ts";
import { startFakeProvider } from "../tests/fake_provider/server.ts";
import { fakeProviderConfig } from "./bench/_measure.ts";
import {
  bundleInto,
  computedImports,
  HASHED,
  isCommonJsChunk,
  lazyRequire,
  pinModuleUrl,
  pruneOld,
} from "./bundle.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");
// --help, not --version: scripts/interpreter runs --version from the sources without a bundle.
const HELP_TEXT = /^Usage: interpreter /;
const BWRAP = await need("bwrap");

interface Copy extends AsyncDisposable {
  root: string;
  cache: string;
}

/** A copy of what the launcher and the bundle read, with the pinned deno linked in. */
async function checkoutCopy(): Promise<Copy> {
  const root = await Deno.makeTempDir({ prefix: "interpreter_bundle_" });
  const copy = async (from: string, to: string): Promise<void> => {
    const info = await Deno.lstat(from);
    if (info.isFile) return await Deno.copyFile(from, to);
    await Deno.mkdir(to, { recursive: true });
    for await (const entry of Deno.readDir(from)) {
      await copy(join(from, entry.name), join(to, entry.name));
    }
  };
  await Deno.mkdir(join(root, "scripts/deno/node_modules/.bin"), { recursive: true });
  for (const path of [...HASHED, "scripts/interpreter", "scripts/_deno.sh"]) {
    await copy(join(REPO, path), join(root, path));
  }
  await Deno.symlink(Deno.execPath(), join(root, "scripts/deno/node_modules/.bin/deno"));
  return {
    root,
    cache: join(root, "cache"),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

interface Launch {
  code: number;
  stdout: string;
  stderr: string;
}

async function launch(copy: Copy, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(join(copy.root, "scripts/interpreter"), {
    args,
    env: { INTERPRETER_BUNDLE: "1", INTERPRETER_BUNDLE_DIR: copy.cache, ...env },
    stdin: "null",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) } as Launch;
}

/** What `cache/current` names, and when it was written. */
async function current(copy: Copy): Promise<{ name: string; mtime: number }> {
  const file = join(copy.cache, "current");
  const mtime = (await Deno.stat(file)).mtime?.getTime() ?? 0;
  return { name: (await Deno.readTextFile(file)).trim(), mtime };
}

Deno.test("pinModuleUrl gives each import.meta.url the module's own location", () => {
  const text = 'const a = new URL("../x", import.meta.url);\nconst b = import.meta.url;\n';
  assert.equal(
    pinModuleUrl(text, "file:///r/lib/a.ts"),
    'const a = new URL("../x", "file:///r/lib/a.ts");\nconst b = "file:///r/lib/a.ts";\n',
  );
  assert.equal(pinModuleUrl("const c = 1;\n", "file:///r/lib/a.ts"), "const c = 1;\n");
});

Deno.test("lazyRequire defers deno bundle's require until a package calls it", () => {
  const eager =
    'var a = 1;\nimport { createRequire as __deno_internal_createRequire } from "node:module";\n' +
    "var __require = __deno_internal_createRequire(import.meta.url);\nvar b = 2;\n";
  assert.equal(
    lazyRequire(eager),
    "var a = 1;\nvar __require = (id) => globalThis.process.getBuiltinModule(id);\nvar b = 2;\n",
  );
  assert.equal(lazyRequire("var a = 1;\n"), "var a = 1;\n");
});

Deno.test("computedImports hides the bundle's own chunks from Deno's eager graph walk", () => {
  const isChunk = (path: string) => path === "./chunk-A.js" || path === "../../chunk-B.js";
  const text = 'await import("./chunk-A.js");\nawait import("../../chunk-B.js");\n' +
    'await import("./other.js");\nawait import("node:crypto");\n';
  assert.equal(
    computedImports(text, isChunk),
    'await import(new URL("./chunk-A.js", import.meta.url).href);\n' +
      'await import(new URL("../../chunk-B.js", import.meta.url).href);\n' +
      'await import("./other.js");\nawait import("node:crypto");\n',
  );
});

Deno.test("computedImports gives an import of a CommonJS chunk the package's names", async () => {
  const chunk =
    'import {\n  require_dist\n} from "./chunk-C.js";\nexport default require_dist();\n';
  assert.ok(isCommonJsChunk(chunk));
  assert.ok(!isCommonJsChunk("export default require_x();\nexport { y };\n"));
  assert.ok(!isCommonJsChunk("export default f();\n"));
  const text = computedImports(
    'const { a } = await import("./dist-A.js");\n',
    () => true,
    () => true,
  );
  const load = text.replace(/import\(new URL\([^)]*\)\.href\)/, "Promise.resolve(ns)");
  const ns = { default: { a: 1, b: 2 } };
  const got = await new Function("ns", `return (async () => { ${load} return a; })()`)(ns);
  assert.equal(got, 1);
});

/** The npm packages the code imports dynamically (`await import("yaml")`), read from its sources. */
async function dynamicallyImportedPackages(): Promise<string[]> {
  const specs = new Set<string>();
  const files = ["main.ts"];
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(join(REPO, dir))) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(rel);
      else if (rel.endsWith(".ts") && !rel.endsWith("_test.ts")) files.push(rel);
    }
  };
  await walk("lib");
  await walk("sandbox");
  const { imports } = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json")));
  const isPackage = (spec: string) =>
    Object.hasOwn(imports, spec.split("/").slice(0, spec.startsWith("@") ? 2 : 1).join("/"));
  for (const file of files) {
    const text = await Deno.readTextFile(join(REPO, file));
    for (const m of text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)) {
      if (isPackage(m[1])) specs.add(m[1]);
    }
  }
  return [...specs].sort();
}

Deno.test("each npm package imported dynamically has the same names in the bundle as in the sources", async () => {
  const specs = await dynamicallyImportedPackages();
  for (const expected of ["yaml", "ajv", "ignore", "turndown", "diff"]) {
    assert.ok(specs.includes(expected), `${expected} is no longer imported dynamically: ${specs}`);
  }
  const dir = await Deno.makeTempDir({ prefix: "interpreter_bundle_cjs_" });
  try {
    const entry = join(dir, "entry.ts");
    const lines = specs.map((spec) =>
      `names[${JSON.stringify(spec)}] = Object.keys(await import(${JSON.stringify(spec)})).sort();`
    );
    await Deno.writeTextFile(
      entry,
      [
        "const names: Record<string, string[]> = {};",
        ...lines,
        "console.log(JSON.stringify(names));",
      ]
        .join("\n"),
    );
    await bundleInto([entry], join(REPO, "deno.json"), join(dir, "out"));
    const run = async (program: string) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--quiet", "-A", "--config", join(REPO, "deno.json"), program],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      return JSON.parse(new TextDecoder().decode(out.stdout)) as Record<string, string[]>;
    };
    const [sources, bundled] = await Promise.all([run(entry), run(join(dir, "out/entry.js"))]);
    assert.deepEqual(Object.keys(sources).sort(), specs);
    for (const spec of specs) {
      // Deno's markers of a CommonJS module, which no caller reads, aside.
      const missing = sources[spec].filter((name) =>
        !bundled[spec].includes(name) && name !== "__esModule" && name !== "module.exports"
      );
      assert.deepEqual(missing, [], `${spec} from the bundle lacks these names`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bundledProgram finds programs beside a bundle's main.js, and only there", () => {
  const main = "file:///c/bundle-0123456789abcdef01234567/main.js";
  assert.equal(
    bundledProgram("sandbox/fs_helper_main.ts", main),
    "/c/bundle-0123456789abcdef01234567/sandbox/fs_helper_main.js",
  );
  assert.equal(bundledProgram("main.ts", main), "/c/bundle-0123456789abcdef01234567/main.js");
  // Sources, tests and other main.js files run the sources' programs.
  assert.equal(bundledProgram("main.ts", "file:///r/main.ts"), undefined);
  assert.equal(bundledProgram("main.ts", "file:///r/x_test.ts"), undefined);
  assert.equal(bundledProgram("main.ts", "file:///r/dist/main.js"), undefined);
});

Deno.test("the bundle is built once, reused while sources are unchanged, rebuilt when they change", async () => {
  await using copy = await checkoutCopy();
  const first = await launch(copy, ["--help"]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, HELP_TEXT);
  assert.equal(first.stderr, "");
  const built = await current(copy);
  assert.match(built.name, /^bundle-[0-9a-f]{24}$/);
  await Deno.stat(join(copy.cache, built.name, "main.js"));
  await Deno.stat(join(copy.cache, built.name, "sandbox/fs_helper_main.js"));
  for await (const entry of Deno.readDir(join(copy.cache, built.name))) {
    if (!entry.name.endsWith(".js")) continue;
    const text = await Deno.readTextFile(join(copy.cache, built.name, entry.name));
    assert.doesNotMatch(text, /from "node:module"/, `${entry.name} loads node:module eagerly`);
    assert.doesNotMatch(text, /\bimport\("\.\/chunk-/, `${entry.name} imports a chunk literally`);
  }

  const again = await launch(copy, ["--help"]);
  assert.equal(again.stdout, first.stdout);
  assert.deepEqual(await current(copy), built, "an unchanged checkout reuses its bundle");

  // A newer file with the same content is hashed again and the same bundle reused.
  const version = join(copy.root, "lib/version.ts");
  const source = await Deno.readTextFile(version);
  await Deno.writeTextFile(version, source);
  assert.equal((await launch(copy, ["--help"])).code, 0);
  assert.equal((await current(copy)).name, built.name);

  await Deno.writeTextFile(version, `${source}// changed\n`);
  const changed = await launch(copy, ["--help"]);
  assert.equal(changed.code, 0, changed.stderr);
  assert.equal(changed.stdout, first.stdout);
  const rebuilt = await current(copy);
  assert.notEqual(rebuilt.name, built.name, "a changed source gives a new bundle");
  await Deno.stat(join(copy.cache, rebuilt.name, "main.js"));
});

Deno.test("a failed build runs the sources with one note, until a source changes", async () => {
  await using copy = await checkoutCopy();
  // Only the bundler follows this import: --help from the sources never loads eval.
  const evalModule = join(copy.root, "lib/modes/eval/eval.ts");
  const source = await Deno.readTextFile(evalModule);
  await Deno.writeTextFile(evalModule, `import "./no_such_module.ts";\n${source}`);

  const failed = await launch(copy, ["--help"]);
  assert.equal(failed.code, 0, failed.stderr);
  assert.match(failed.stdout, HELP_TEXT);
  assert.match(
    failed.stderr,
    /^note: running interpreter from its sources: [^\n]*failed\.log\)\n$/,
  );
  const marker = await current(copy);
  assert.match(marker.name, /^failed-[0-9a-f]{24}$/);
  assert.match(await Deno.readTextFile(join(copy.cache, "failed.log")), /no_such_module/);

  const again = await launch(copy, ["--help"]);
  assert.match(again.stdout, HELP_TEXT);
  assert.match(again.stderr, /^note: running interpreter from its sources: [^\n]*\n$/);
  assert.deepEqual(await current(copy), marker, "no new attempt while the sources are unchanged");

  await Deno.writeTextFile(evalModule, source);
  const fixed = await launch(copy, ["--help"]);
  assert.equal(fixed.stderr, "");
  assert.match((await current(copy)).name, /^bundle-/);
  await assert.rejects(Deno.stat(join(copy.cache, "failed.log")));
});

Deno.test("INTERPRETER_BUNDLE=0 runs the sources and builds nothing", async () => {
  await using copy = await checkoutCopy();
  const out = await launch(copy, ["--help"], { INTERPRETER_BUNDLE: "0" });
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, HELP_TEXT);
  assert.equal(out.stderr, "");
  await assert.rejects(Deno.stat(copy.cache));

  // A cache folder that cannot be made: the sources run, and one note names the fix.
  const blocked = join(copy.root, "deno.json", "cache");
  const unwritable = await launch(copy, ["--help"], { INTERPRETER_BUNDLE_DIR: blocked });
  assert.equal(unwritable.code, 0, unwritable.stderr);
  assert.match(unwritable.stdout, HELP_TEXT);
  assert.match(
    unwritable.stderr,
    /^note: [^\n]*cannot write [^\n]*INTERPRETER_BUNDLE_DIR[^\n]*\n$/,
  );
});

/** Overwrites `file` in place, keeping its modification time, so the launcher sees no change. */
async function replaceUnnoticed(file: string, text: string): Promise<void> {
  const { atime, mtime } = await Deno.stat(file);
  await Deno.writeTextFile(file, text);
  await Deno.utime(file, atime ?? new Date(), mtime ?? new Date());
}

Deno.test({
  name:
    `exec from the bundle reads a YAML skill, runs the bundled file helper and sandboxed commands${BWRAP.note}`,
  ignore: BWRAP.ignore,
  async fn() {
    await using copy = await checkoutCopy();
    assert.equal((await launch(copy, ["--help"])).code, 0);
    // The sources' helper and main.ts now fail: only the bundled ones can answer.
    const broken = 'throw new Error("ran from the sources");\n';
    await replaceUnnoticed(join(copy.root, "sandbox/fs_helper_main.ts"), broken);
    await replaceUnnoticed(join(copy.root, "main.ts"), broken);
    const home = join(copy.root, "home");
    const work = join(copy.root, "work");
    await Deno.mkdir(home);
    await Deno.mkdir(work);
    await Deno.writeTextFile(join(work, "a.txt"), "read-through-the-helper\n");
    // Front matter that only the YAML parser reads (a folded value, a list): loaded from a chunk.
    const skill = join(work, ".agents/skills/yaml-skill");
    await Deno.mkdir(skill, { recursive: true });
    await Deno.writeTextFile(
      join(skill, "SKILL.md"),
      "---\nname: yaml-skill\ndescription: >-\n  Folded over\n  two lines\n" +
        "allowed-tools: [Read, Bash]\n---\nThe skill's body: yaml-skill-loaded.\n",
    );
    await using provider = startFakeProvider([
      { reply: { tool_calls: [{ name: "Skill", args: { skill: "yaml-skill" } }] } },
      { reply: { tool_calls: [{ name: "Read", args: { file_path: join(work, "a.txt") } }] } },
      { reply: { tool_calls: [{ name: "Bash", args: { command: "echo ran-in-bwrap > b.txt" } }] } },
      { reply: { text: "done" } },
    ]);
    await Deno.writeTextFile(join(home, "config.toml"), fakeProviderConfig(provider.baseUrl));
    const out = await new Deno.Command(join(copy.root, "scripts/interpreter"), {
      args: ["exec", "--skip-git-repo-check", "-s", "workspace-write", "-a", "never"].concat(
        ["--harness", "claude-code", "read a.txt"],
      ),
      cwd: work,
      env: {
        INTERPRETER_BUNDLE: "1",
        INTERPRETER_BUNDLE_DIR: copy.cache,
        OPENINTERPRETER_HOME: home,
        FAKE_KEY: "fake-key",
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    assert.equal(provider.requests.length, 4, stderr);
    assert.match(JSON.stringify(provider.requests[0].body), /yaml-skill: Folded over two lines/);
    assert.match(JSON.stringify(provider.requests[1].body), /yaml-skill-loaded/);
    assert.match(JSON.stringify(provider.requests[2].body), /read-through-the-helper/);
    assert.equal(await Deno.readTextFile(join(work, "b.txt")), "ran-in-bwrap\n");
  },
});

Deno.test({
  name: "old bundles are removed unless current, among the two newest, or run by a process",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const cache = await Deno.makeTempDir({ prefix: "interpreter_bundle_prune_" });
    const names = [0, 1, 2, 3, 4, 5].map((n) => `bundle-${String(n).repeat(24)}`);
    for (const [age, name] of names.entries()) {
      await Deno.mkdir(join(cache, name, "lib"), { recursive: true });
      const when = new Date(Date.now() - age * 60_000);
      await Deno.utime(join(cache, name), when, when);
    }
    // A session still running the oldest bundle, as its command line shows.
    const session = new Deno.Command("bash", {
      args: ["-c", "sleep 60; true", join(cache, names[5], "main.js")],
    }).spawn();
    try {
      const deadline = Date.now() + 10_000;
      const cmdline = () => Deno.readTextFile(`/proc/${session.pid}/cmdline`).catch(() => "");
      while (!(await cmdline()).includes(names[5]) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await pruneOld(cache, names[3]);
      const left = [];
      for await (const entry of Deno.readDir(cache)) left.push(entry.name);
      assert.deepEqual(left.sort(), [names[0], names[1], names[3], names[5]]);
    } finally {
      session.kill("SIGKILL");
      await session.status;
      await Deno.remove(cache, { recursive: true });
    }
  },
});

Deno.test("--version runs the sources and neither checks nor builds the bundle", async () => {
  await using copy = await checkoutCopy();
  const out = await launch(copy, ["--version"]);
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /^interpreter \S+ \(commit \S+\)\n$/);
  assert.equal(out.stderr, "");
  await assert.rejects(Deno.stat(copy.cache), "--version made no bundle cache");
  // Control: any other command builds it.
  assert.equal((await launch(copy, ["--help"])).code, 0);
  assert.match((await current(copy)).name, /^bundle-/);
});
