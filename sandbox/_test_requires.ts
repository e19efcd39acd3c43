/**
 * Test helper: the one way tests find out whether a program they need (bubblewrap, rg, tmux,
 * python3, pytest, ...) works here. `need()` answers; a test that needs a missing program is
 * skipped (`ignore`), its name saying why (`note`). Under `CI=true` a missing program also adds a
 * failing test that names it and how to install it, so a run cannot pass by not running.
 * It lives in sandbox/ so that test helpers in every layer above may import it.
 */
import { probeBubblewrap } from "./probe.ts";

/** A program some tests need. */
export type Tool = "bwrap" | "rg" | "tmux" | "python3" | "pytest" | "node" | "wget";

const INSTALL: Record<Tool, string> = {
  bwrap: 'install bubblewrap ("apt-get install bubblewrap") and allow user namespaces',
  rg: 'install ripgrep ("apt-get install ripgrep")',
  tmux: 'install tmux ("apt-get install tmux")',
  python3: 'install Python 3.10 or later ("apt-get install python3")',
  pytest: 'install pytest ("apt-get install python3-pytest")',
  node: 'install Node.js ("apt-get install nodejs")',
  wget: 'install wget ("apt-get install wget")',
};

const VERSION_ARGS: Record<Exclude<Tool, "bwrap">, [string, string[]]> = {
  rg: ["rg", ["--version"]],
  tmux: ["tmux", ["-V"]],
  python3: ["python3", ["-c", "import sys; sys.exit(sys.version_info < (3, 10))"]],
  pytest: ["python3", ["-m", "pytest", "--version"]],
  node: ["node", ["--version"]],
  wget: ["wget", ["--version"]],
};

/** Whether a program works here. */
export interface Need {
  tool: Tool;
  ok: boolean;
  /** Why it cannot be used and how to install it; "" when `ok`. */
  why: string;
  /** `ignore` for the tests that need it: true when it does not work here. */
  ignore: boolean;
  /** What to append to those tests' names: "" or ` (SKIPPED: why)`. */
  note: string;
}

/** Whether this run is CI's (`CI=true`), where a missing program fails the run. */
function inCI(): boolean {
  return Deno.env.get("CI") === "true";
}

async function runs(program: string, args: string[]): Promise<boolean> {
  try {
    const out = await new Deno.Command(program, { args, stdout: "null", stderr: "null" }).output();
    return out.success;
  } catch {
    return false;
  }
}

/** Why `tool` cannot run here, or undefined when it can. */
async function failure(tool: Tool): Promise<string | undefined> {
  if (tool === "bwrap") {
    const probe = await probeBubblewrap();
    return probe.ok ? undefined : probe.failure.message;
  }
  const [program, args] = VERSION_ARGS[tool];
  return await runs(program, args) ? undefined : `"${program} ${args.join(" ")}" did not run`;
}

/** The Need for `tool` given why it fails (undefined: it works). Pure, for tests of this file. */
export function needOf(tool: Tool, failed: string | undefined): Need {
  if (failed === undefined) return { tool, ok: true, why: "", ignore: false, note: "" };
  const why = `${tool} is missing here (${failed}): ${INSTALL[tool]}`;
  return { tool, ok: false, why, ignore: true, note: ` (SKIPPED: ${why})` };
}

/**
 * Whether `tool` works here: bubblewrap must build its namespaces, the others must start.
 * Bubblewrap off Linux is a platform limit, not a missing program: skipped even in CI. Under CI
 * (`ci`, default `CI=true`) a missing program registers a failing test naming it.
 */
export async function need(tool: Tool, ci = inCI()): Promise<Need> {
  if (tool === "bwrap" && Deno.build.os !== "linux") {
    return {
      ...needOf(tool, "bubblewrap needs Linux"),
      note: " (SKIPPED: bubblewrap needs Linux)",
    };
  }
  const result = needOf(tool, await failure(tool));
  if (!result.ok && ci) {
    Deno.test(`${tool} is installed (CI=true fails where a test needs it)`, () => {
      throw new Error(`${result.why}. Under CI=true a missing program fails the run.`);
    });
  }
  return result;
}
