import { join } from "node:path";
import type { ToolContext } from "./capability.ts";
import { DEFAULT_PROTECTED_NAMES, type SandboxPolicy } from "../../sandbox/bwrap_args.ts";
import type { FileSystem } from "../../sandbox/file_system.ts";
import { probeBubblewrap } from "../../sandbox/probe.ts";
import { SessionScratch } from "../../sandbox/scratch_space.ts";
import { need } from "../../sandbox/_test_requires.ts";

const NEED = await need("bwrap");
const probe = NEED.ok ? await probeBubblewrap() : undefined;

/** The bwrap program when a working one was found on Linux. Test helper. */
export const BWRAP: string | undefined = probe?.ok ? probe.bwrap : undefined;
/** Appended to the names of tests that need bwrap, saying why they were skipped. */
const NO_BWRAP_REASON = NEED.note;

/** A test that runs only where the sandboxed helper can run under bwrap. Test helper. */
export function bwrapTest(name: string, fn: () => Promise<void>): void {
  Deno.test({ name: `${name}${NO_BWRAP_REASON}`, ignore: BWRAP === undefined, fn });
}

/** A workspace and a folder next to it, under /var/tmp, removed on dispose. */
export interface SandboxLayout extends AsyncDisposable {
  root: string;
  ws: string;
  outside: string;
  policy: SandboxPolicy;
  /** A tool context rooted at `ws` that uses `fs`, with its scratch space under `root`. */
  ctx(fs: FileSystem): ToolContext;
}

/**
 * `<root>/ws` with `.git/config` and `.git/hooks/`, and `<root>/outside/victim.txt`. The root is
 * under /var/tmp, not /tmp: sandboxed processes get a private /tmp, so an "outside" target there
 * could not show an escape. Test helper.
 */
export async function sandboxLayout(
  mode: SandboxPolicy["mode"] = "workspace-write",
): Promise<SandboxLayout> {
  const root = await Deno.realPath(await Deno.makeTempDir({ dir: "/var/tmp", prefix: "oi_fs_" }));
  const ws = join(root, "ws");
  const outside = join(root, "outside");
  await Deno.mkdir(join(ws, ".git", "hooks"), { recursive: true });
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(ws, ".git", "config"), "[core]\n");
  await Deno.writeTextFile(join(outside, "victim.txt"), "orig\n");
  const policy: SandboxPolicy = {
    mode,
    writableRoots: [ws],
    protectedNames: [...DEFAULT_PROTECTED_NAMES],
    networkAccess: false,
    privateTmp: false,
  };
  const scratch = new SessionScratch(join(root, "run"));
  return {
    root,
    ws,
    outside,
    policy,
    ctx: (fs) => ({
      callId: "test_call",
      progress: () => {},
      cwd: ws,
      signal: new AbortController().signal,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: root },
      state: new Map(),
      fs,
    }),
    async [Symbol.asyncDispose]() {
      await scratch[Symbol.asyncDispose]();
      await Deno.remove(root, { recursive: true });
    },
  };
}
