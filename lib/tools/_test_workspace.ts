import { dirname, join } from "node:path";
import type { ToolContext, ToolProgress } from "./types.ts";
import { Resources } from "./resources.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { SessionScratch } from "../../sandbox/scratch_space.ts";

/** A temporary workspace directory with a ready tool context; removed on dispose. */
export interface TempWorkspace extends AsyncDisposable {
  dir: string;
  /**
   * A context rooted at `dir`: this process's file system, a scratch space outside `dir`, and
   * resources that disposing the workspace ends.
   */
  ctx: ToolContext & { resources: Resources };
  /** What the context's `progress` was given, in order. */
  progress: ToolProgress[];
  /** Reads a workspace file as text. */
  read(path: string): Promise<string>;
}

/** Creates a temp dir holding `files` (path → text) and a context rooted at it. Test helper. */
export async function tempWorkspace(
  files: Record<string, string> = {},
  opts: { signal?: AbortSignal } = {},
): Promise<TempWorkspace> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_tools_" }));
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  const env: Record<string, string> = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: dir };
  const scratch = await testScratch();
  const resources = new Resources();
  const progress: ToolProgress[] = [];
  return {
    dir,
    progress,
    ctx: {
      callId: "test_call",
      progress: (chunk) => progress.push(chunk),
      cwd: dir,
      signal: opts.signal ?? new AbortController().signal,
      env,
      state: new Map(),
      resources,
      fs: inProcessFs,
      scratch,
    },
    read: (path) => Deno.readTextFile(join(dir, path)),
    async [Symbol.asyncDispose]() {
      await resources[Symbol.asyncDispose]();
      await scratch[Symbol.asyncDispose]();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** A scratch space in its own temp folder, which disposing it removes. Test helper. */
export async function testScratch(): Promise<SessionScratch & { root: string }> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_scratch_" }));
  const scratch = new SessionScratch(root);
  const dispose = scratch[Symbol.asyncDispose].bind(scratch);
  return Object.assign(scratch, {
    root,
    async [Symbol.asyncDispose]() {
      await dispose();
      await Deno.remove(root, { recursive: true });
    },
  });
}
