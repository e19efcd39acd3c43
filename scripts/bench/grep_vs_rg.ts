// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * The `fs.grep` capability (ripgrep engine, default limit of 1000 entries) against `rg` doing the
 * same job on a generated tree of 100,000 files: listing the matching files (`rg -l`), counting
 * per file (`rg --count`) and printing matching lines with a line of context (`rg -n -C1`), with
 * a few matching files and with every file matching. `rg` writes to a pipe that is read to the
 * end (rg stops at the first match when its stdout is /dev/null). Medians of interleaved runs,
 * and their ratio; the target is 1.3× at most. The tree is removed afterwards.
 *
 *   deno run -A scripts/bench/grep_vs_rg.ts [runs] [files]
 */
import { join } from "node:path";
import { fsGrep, type FsGrepInput } from "../../lib/tools/fs_grep.ts";
import { RG_FILTER_FLAGS } from "../../lib/tools/_rg.ts";
import type { ToolContext } from "../../lib/tools/capability.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { median, ms, sample } from "./_measure.ts";

const RUNS = Number(Deno.args[0] ?? 5);
const FILES = Number(Deno.args[1] ?? 100_000);
const PER_DIR = 100;
/** One file in this many holds the rare word. */
const RARE_EVERY = 10_000;
const TARGET = 1.3;

/** Writes FILES small source files, 100 to a folder, 10 folders to a parent. */
async function makeTree(root: string): Promise<void> {
  const dirs = Math.ceil(FILES / PER_DIR);
  for (let d = 0; d < dirs; d++) {
    const dir = join(root, `d${String(Math.floor(d / 10)).padStart(3, "0")}`, `s${d % 10}`);
    await Deno.mkdir(dir, { recursive: true });
    await Promise.all(Array.from({ length: PER_DIR }, (_, i) => {
      const n = d * PER_DIR + i;
      const rare = n % RARE_EVERY === RARE_EVERY - 1 ? "// NEEDLE here\n" : "";
      const text = `// file ${n}\nexport const value${n} = ${n};\n${rare}` +
        `function common() {\n  return "hay";\n}\n`;
      return Deno.writeTextFile(join(dir, `f${String(i).padStart(3, "0")}.ts`), text);
    }));
  }
}

/** Wall time of `rg` run to completion, its stdout read through a pipe. */
async function timeRg(root: string, args: string[]): Promise<number> {
  const start = performance.now();
  const child = new Deno.Command("rg", {
    args: [...RG_FILTER_FLAGS, "--crlf", "--max-filesize", "1M", ...args, "--", "."],
    cwd: root,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let bytes = 0;
  for await (const chunk of child.stdout) bytes += chunk.length;
  const status = await child.status;
  if (status.code > 1 || bytes === 0) throw new Error(`rg ${args.join(" ")} failed`);
  return performance.now() - start;
}

async function timeOurs(ctx: ToolContext, input: FsGrepInput): Promise<number> {
  const start = performance.now();
  const out = await fsGrep.run(input, ctx);
  if (out.files.length === 0) throw new Error(`fs.grep ${JSON.stringify(input)} found nothing`);
  return performance.now() - start;
}

const MODES = [
  { mode: "files_with_matches", rg: ["--files-with-matches"] },
  { mode: "count", rg: ["--count"] },
  { mode: "content", rg: ["--line-number", "--context", "1"] },
] as const;

const CASES = [
  { label: "few matches", pattern: "NEEDLE" },
  { label: "every file matches", pattern: "export" },
];

async function main(): Promise<number> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "bench_grep_" }));
  try {
    console.log(`writing ${FILES} files ...`);
    await makeTree(root);
    const ctx: ToolContext = {
      cwd: root,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
      state: new Map(),
      fs: inProcessFs,
      signal: new AbortController().signal,
      callId: "bench",
      progress: () => {},
    };
    let worst = 0;
    console.log(
      `${"case".padEnd(20)} ${"mode".padEnd(20)} ${"fs.grep".padStart(10)} ` +
        `${"rg".padStart(10)}  ratio`,
    );
    for (const c of CASES) {
      for (const m of MODES) {
        const input: FsGrepInput = {
          pattern: c.pattern,
          output_mode: m.mode,
          context: m.mode === "content" ? 1 : undefined,
        };
        const [ours, rg] = await sample(RUNS, [
          () => timeOurs(ctx, input),
          () => timeRg(root, [...m.rg, "--regexp", c.pattern]),
        ]);
        const ratio = median(ours) / median(rg);
        worst = Math.max(worst, ratio);
        console.log(
          `${c.label.padEnd(20)} ${m.mode.padEnd(20)} ${ms(median(ours))} ${ms(median(rg))}` +
            `  ${ratio.toFixed(2)}×`,
        );
      }
    }
    console.log(`worst ratio ${worst.toFixed(2)}× (target ≤ ${TARGET}×)`);
    return worst <= TARGET ? 0 : 1;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main());
