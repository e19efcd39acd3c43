// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * kimi-code's Grep and Glob, as a session runs them (through the harness, rg in the session's
 * bubblewrap sandbox, files stat-ed by the sandboxed file helper), against `rg` run directly doing
 * the same job on a generated tree of 100,000 files: listing the matching files (`rg -l`),
 * counting per file (`rg --count`) and printing matching lines with a line of context
 * (`rg -n -C1`), with a few matching files and with every file matching; and listing files by
 * glob (`rg --files -g`), a few and every one. rg gets the filter flags the tools give it
 * (RG_FILTER_FLAGS, and `--max-filesize 1M` for a search). `rg` writes to a pipe that is read to
 * the end (rg stops at the first match when its stdout is /dev/null). Medians of interleaved
 * runs and their ratio; the target is 1.1x. Without bubblewrap the tools run unsandboxed, said
 * so. The tree is written to a temporary folder and removed afterwards.
 *
 *   deno run -A scripts/bench/grep_vs_rg.ts [--quick] [runs] [files]
 */
import { join } from "node:path";
import { RG_FILTER_FLAGS } from "../../lib/tools/_rg.ts";
import type { ToolContext } from "../../lib/tools/capability.ts";
import { Resources } from "../../lib/tools/resources.ts";
import { loadHarness } from "../../lib/harness/load.ts";
import { dispatchToolCall } from "../../lib/loop/dispatch.ts";
import { DEFAULT_PROTECTED_NAMES } from "../../sandbox/bwrap_args.ts";
import { type CommandSandbox, openCommandSandbox } from "../../sandbox/command_sandbox.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { fileSystemFor } from "../../sandbox/fs_helper_client.ts";
import { benchLine, isQuick, median, ms, REPO, sample } from "./_measure.ts";

const numbers = Deno.args.filter((a) => a !== "--quick");
const RUNS = Number(numbers[0] ?? (isQuick() ? 3 : 7));
const FILES = Number(numbers[1] ?? (isQuick() ? 20_000 : 100_000));
const PER_DIR = 100;
/** One file in this many holds the rare word. */
const RARE_EVERY = 10_000;
const TARGET = 1.1;

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
    args: [...RG_FILTER_FLAGS, ...args, "--", "."],
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

/** A session's tools on `root`: the harness, and a context with the sandbox when there is one. */
interface Session extends AsyncDisposable {
  /** Wall time of one call of the harness tool `name`; throws when it finds nothing. */
  time(name: string, args: Record<string, unknown>): Promise<number>;
  note: string;
}

async function openSession(root: string): Promise<Session> {
  const harness = await loadHarness("kimi-code", { builtinDir: join(REPO, "harnesses") });
  const sandbox: CommandSandbox = await openCommandSandbox({
    mode: "workspace-write",
    writableRoots: [root],
    networkAccess: false,
  });
  const boxed = sandbox.status.kind === "bwrap" && sandbox.status.enforced;
  const { fs } = boxed
    ? await fileSystemFor({
      mode: "workspace-write",
      writableRoots: [root],
      protectedNames: [...DEFAULT_PROTECTED_NAMES],
      networkAccess: false,
      privateTmp: false,
    }, { probeOk: true })
    : { fs: { ...inProcessFs, [Symbol.asyncDispose]: async () => {} } };
  const ctx: ToolContext = {
    cwd: root,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    state: new Map(),
    resources: new Resources(),
    fs,
    sandbox: boxed ? sandbox : undefined,
    signal: new AbortController().signal,
    callId: "bench",
    progress: () => {},
  };
  let n = 0;
  return {
    note: boxed ? sandbox.status.description : "no bubblewrap: tools run unsandboxed",
    async time(name, args) {
      const start = performance.now();
      const out = await dispatchToolCall({ id: `c${++n}`, name, args }, {
        harness,
        ctx,
        emit: () => {},
      });
      const elapsed = performance.now() - start;
      if (out.isError || out.text.includes("Tool output is empty")) {
        throw new Error(`${name} ${JSON.stringify(args)} failed: ${out.text.slice(0, 300)}`);
      }
      return elapsed;
    },
    async [Symbol.asyncDispose]() {
      await ctx.resources?.[Symbol.asyncDispose]();
      await fs[Symbol.asyncDispose]();
      await sandbox.close();
    },
  };
}

/** One figure: a harness call and the rg command doing the same job. */
interface Figure {
  name: string;
  tool: string;
  args: Record<string, unknown>;
  rg: string[];
}

const SEARCH = ["--crlf", "--max-filesize", "1M"];

function figures(): Figure[] {
  const out: Figure[] = [];
  for (const [label, pattern] of [["few matches", "NEEDLE"], ["every file matches", "export"]]) {
    const re = ["--regexp", pattern];
    out.push(
      {
        name: `grep ${label} vs rg -l`,
        tool: "Grep",
        args: { pattern },
        rg: [...SEARCH, "-l", ...re],
      },
      {
        name: `grep count ${label} vs rg --count`,
        tool: "Grep",
        args: { pattern, output_mode: "count_matches" },
        rg: [...SEARCH, "--count", ...re],
      },
      {
        name: `grep content -C1 ${label} vs rg -n -C1`,
        tool: "Grep",
        args: { pattern, output_mode: "content", "-C": 1 },
        rg: [...SEARCH, "-n", "-C1", ...re],
      },
    );
  }
  for (const [label, glob] of [["few files", "**/f099.ts"], ["every file", "*.ts"]]) {
    out.push({
      name: `glob ${label} vs rg --files -g`,
      tool: "Glob",
      args: { pattern: glob },
      rg: ["--files", "-g", glob],
    });
  }
  return out;
}

async function main(): Promise<number> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "bench_grep_" }));
  try {
    console.log(`writing ${FILES} files ...`);
    await makeTree(root);
    await using session = await openSession(root);
    console.log(`sandbox: ${session.note}; medians of ${RUNS} interleaved runs`);
    const results: [string, number][] = [];
    for (const f of figures()) {
      const [ours, rg] = await sample(RUNS, [
        () => session.time(f.tool, f.args),
        () => timeRg(root, f.rg),
      ]);
      const ratio = median(ours) / median(rg);
      results.push([f.name, ratio]);
      console.log(
        `${f.name.padEnd(44)} ${f.tool.padEnd(5)} ${ms(median(ours))}  rg ${ms(median(rg))}` +
          `  ${ratio.toFixed(2)}x   load ${(await Deno.readTextFile("/proc/loadavg")).trim()}`,
      );
    }
    for (const [name, ratio] of results) console.log(benchLine(name, ratio, TARGET));
    return 0;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main());
