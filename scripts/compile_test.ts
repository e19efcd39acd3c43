import { ENTRY_MODULES } from "../lib/cli/entry_modules.ts";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { DENO_PERMISSION_FLAGS } from "../sandbox/deno_flags.ts";
import { compileArgs, RELEASE_ENV, sha256sumLine, shellQuote, TARGETS } from "./compile.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const ASSETS = [
  "interpreter-linux-x64",
  "interpreter-linux-arm64",
  "interpreter-darwin-x64",
  "interpreter-darwin-arm64",
  "interpreter-windows-x64.exe",
];

/** Splits a line the way a POSIX shell would, for the quoting `shellQuote` produces. */
function shellSplit(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === " ") {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? "") + line.slice(i + 1, end);
      i = end;
    } else if (c === "\\") {
      word = (word ?? "") + line[++i];
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

async function runCompileTask(...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "--config", "deno.json", "compile", ...args],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

Deno.test("TARGETS names exactly the release assets install.sh and install.ps1 download", () => {
  assert.deepEqual(TARGETS.map((t) => t.asset), ASSETS);
});

Deno.test("deno task compile --dry-run prints one command per target with the sandbox flags", async () => {
  const buildInfo = await Deno.readTextFile(`${REPO}/lib/_build_info.json`);
  const { code, stdout, stderr } = await runCompileTask("--dry-run");
  assert.equal(code, 0, stderr);
  const commands = stdout.split("\n").filter((line) => line && !line.startsWith("#"))
    .map(shellSplit);
  assert.equal(commands.length, TARGETS.length, stdout);
  commands.forEach((argv, i) => {
    assert.equal(argv[1], "compile");
    assert.deepEqual(argv.slice(1), compileArgs(TARGETS[i]));
    assert.equal(argv[argv.indexOf("--target") + 1], TARGETS[i].triple);
    assert.equal(argv[argv.indexOf("--output") + 1], `dist/${ASSETS[i]}`);
    const flags = argv.slice(argv.indexOf("harnesses") + 1, argv.indexOf("--config"));
    assert.deepEqual(flags, [...DENO_PERMISSION_FLAGS]);
    assert.ok(flags.includes("--no-prompt"), "compiled binaries must never prompt");
    assert.equal(argv.at(-1), "main.ts");
    for (const module of Object.values(ENTRY_MODULES)) {
      assert.equal(argv[argv.indexOf(module) - 1], "--include", `${module} is in the binary`);
    }
  });
  assert.equal(await Deno.readTextFile(`${REPO}/lib/_build_info.json`), buildInfo);
});

Deno.test("every binary embeds DENO_NO_UPDATE_CHECK=1, so it never looks up dl.deno.land", async () => {
  for (const target of TARGETS) {
    assert.ok(compileArgs(target).includes(`--env-file=${RELEASE_ENV}`), target.triple);
  }
  const lines = (await Deno.readTextFile(`${REPO}/${RELEASE_ENV}`)).split("\n")
    .filter((line) => line && !line.startsWith("#"));
  assert.deepEqual(lines, ["DENO_NO_UPDATE_CHECK=1"]);
});

Deno.test("deno task compile rejects an unknown argument with exit code 2", async () => {
  const { code, stderr } = await runCompileTask("--bogus");
  assert.equal(code, 2);
  assert.match(stderr, /^error: Unknown argument "--bogus"$/m);
});

Deno.test("lib/_build_info.json is the committed placeholder, not a baked commit", async () => {
  assert.deepEqual(JSON.parse(await Deno.readTextFile(`${REPO}/lib/_build_info.json`)), {
    commit: "",
  });
});

Deno.test("sha256sumLine() writes sha256sum's format", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/f`, "abc");
    assert.equal(
      await sha256sumLine(`${dir}/f`, "interpreter-linux-x64"),
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  interpreter-linux-x64",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("shellQuote() output reads back as the same arguments in sh", async () => {
  const args = ["plain", "with space", "it's", "", "$HOME", "a\\b", "--allow-read=/x,/y"];
  const out = await new Deno.Command("sh", {
    args: ["-c", `printf '%s\\n' ${args.map(shellQuote).join(" ")}`],
    stdout: "piped",
  }).output();
  assert.deepEqual(new TextDecoder().decode(out.stdout).split("\n").slice(0, -1), args);
  assert.deepEqual(shellSplit(args.map(shellQuote).join(" ")), args);
});

Deno.test("every module main.ts loads by path exists, so the binary can --include it", async () => {
  for (const module of Object.values(ENTRY_MODULES)) {
    assert.ok((await Deno.stat(`${REPO}/${module}`)).isFile, module);
  }
  const main = await Deno.readTextFile(`${REPO}/main.ts`);
  assert.doesNotMatch(main, /(?<!typeof )import\("\.\//, "main.ts loads modules through load()");
});
