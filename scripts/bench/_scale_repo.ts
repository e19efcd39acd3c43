/**
 * Generated repositories for the scale benchmarks: a 10-file one, and one of 100,000 files whose
 * history holds many commits of random content (git fast-import writes both in seconds), with
 * instruction files, a skill and uncommitted changes in each.
 */
import { join } from "node:path";

/** The sizes of a generated big repository. */
export interface BigRepoSize {
  files: number;
  /** Commits before the one that adds the files, each rewriting one file with random text. */
  historyCommits: number;
  /** Bytes of random text per history commit. */
  historyBlobBytes: number;
}

export const FULL_SIZE: BigRepoSize = {
  files: 100_000,
  historyCommits: 2_000,
  historyBlobBytes: 25_000,
};

async function git(cwd: string, args: string[], stdin?: ReadableStream<Uint8Array>) {
  const child = new Deno.Command("git", {
    args: ["-c", "core.hooksPath=/dev/null", ...args],
    cwd,
    stdin: stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    env: { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
  }).spawn();
  if (stdin) await stdin.pipeTo(child.stdin);
  const out = await child.output();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

function randomText(bytes: number): string {
  const raw = new Uint8Array(Math.ceil(bytes * 3 / 4));
  for (let i = 0; i < raw.length; i += 65536) crypto.getRandomValues(raw.subarray(i, i + 65536));
  return btoa(String.fromCharCode(...raw)).slice(0, bytes);
}

function inline(path: string, text: string): string {
  return `M 100644 inline ${path}\ndata ${new TextEncoder().encode(text).length}\n${text}\n`;
}

function commitHeader(mark: number, message: string): string {
  return `commit refs/heads/main\nmark :${mark}\ncommitter Bench <bench@example.com> ${
    1_700_000_000 + mark * 60
  } +0000\ndata ${message.length}\n${message}\n${mark > 1 ? `from :${mark - 1}\n` : ""}`;
}

/** The files every generated repository has besides its bulk: instructions and a skill. */
function commonFiles(): [string, string][] {
  return [
    ["AGENTS.md", "# Project\n\nRun the tests with `make test`.\n"],
    ["src/AGENTS.md", "Code in src/ uses two-space indents.\n"],
    [
      ".agents/skills/release/SKILL.md",
      "---\nname: release\ndescription: Cut a release of this project.\n---\nSteps.\n",
    ],
  ];
}

/** Streams the fast-import commands of a repository of `size` into `git fast-import`. */
function fastImportStream(size: BigRepoSize): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let mark = 0;
  let file = 0;
  return new ReadableStream({
    pull(controller) {
      if (mark < size.historyCommits) {
        mark++;
        const text = randomText(size.historyBlobBytes);
        const chunk = commitHeader(mark, `history ${mark}\n`) +
          inline(`history/log_${mark % 50}.txt`, text);
        controller.enqueue(encoder.encode(chunk));
        return;
      }
      if (file === 0) {
        mark++;
        const common = commonFiles().map(([path, text]) => inline(path, text)).join("");
        controller.enqueue(encoder.encode(commitHeader(mark, "the sources\n") + common));
      }
      if (file >= size.files) {
        controller.enqueue(encoder.encode("done\n"));
        controller.close();
        return;
      }
      let chunk = "";
      for (const end = Math.min(file + 1000, size.files); file < end; file++) {
        chunk += inline(
          `src/d${Math.floor(file / 100)}/f${file}.ts`,
          `export const v${file} = ${file};\n`,
        );
      }
      controller.enqueue(encoder.encode(chunk));
    },
  });
}

/** Leaves 20 files changed and 5 new beside the commit, as a working session would. */
async function dirty(dir: string, changed: string[]): Promise<void> {
  for (const path of changed.slice(0, 20)) await Deno.writeTextFile(join(dir, path), "changed\n");
  for (let i = 0; i < 5; i++) await Deno.writeTextFile(join(dir, `new_${i}.txt`), "new\n");
}

/** A git repository of 10 files (plus instructions and a skill) in `dir`, created. */
export async function smallRepo(dir: string): Promise<void> {
  await Deno.mkdir(join(dir, "src"), { recursive: true });
  await git(dir, ["init", "-q", "-b", "main"]);
  await git(
    dir,
    ["fast-import", "--quiet"],
    fastImportStream({
      files: 10,
      historyCommits: 3,
      historyBlobBytes: 1000,
    }),
  );
  await git(dir, ["reset", "--hard", "-q"]);
  await dirty(dir, ["src/d0/f0.ts", "src/d0/f1.ts"]);
}

/** A git repository of `size` in `dir`, created; returns the paths of its files in src/. */
export async function bigRepo(dir: string, size: BigRepoSize): Promise<string[]> {
  await Deno.mkdir(dir, { recursive: true });
  await git(dir, ["init", "-q", "-b", "main"]);
  await git(dir, ["fast-import", "--quiet"], fastImportStream(size));
  await git(dir, ["reset", "--hard", "-q"]);
  const paths = Array.from(
    { length: size.files },
    (_, i) => `src/d${Math.floor(i / 100)}/f${i}.ts`,
  );
  await dirty(dir, paths.filter((_, i) => i % 997 === 0));
  return paths;
}

/** Bytes of the repository's object store (`git count-objects`: size-pack plus loose). */
export async function historyBytes(dir: string): Promise<number> {
  const out = await git(dir, ["count-objects", "-v"]);
  const kib = (key: string) => Number(new RegExp(`^${key}: (\\d+)$`, "m").exec(out)?.[1] ?? 0);
  return (kib("size-pack") + kib("size")) * 1024;
}
