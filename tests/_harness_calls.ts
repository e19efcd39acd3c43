import { fileURLToPath } from "node:url";
import { loadHarness } from "../lib/harness/load.ts";
import type { Harness } from "../lib/harness/types.ts";
import { type DispatchResult, dispatchToolCall } from "../lib/loop/dispatch.ts";
import { type TempWorkspace, tempWorkspace } from "../lib/tools/_test_workspace.ts";

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));

/** A built-in harness. Test helper. */
function builtin(id: string): Promise<Harness> {
  return loadHarness(id, { builtinDir: HARNESSES });
}

/** A harness and a workspace whose calls run for real, through dispatchToolCall. Test helper. */
export interface HarnessSession extends AsyncDisposable {
  harness: Harness;
  ws: TempWorkspace;
  /** Runs one call and returns its text (with `{cwd}` for the workspace) and error flag. */
  call(name: string, args: unknown, rawArgs?: string): Promise<DispatchResult>;
  /** Runs one call and returns the dispatch result as it is, the capability output included. */
  dispatch(name: string, args: unknown): Promise<DispatchResult>;
}

/** Opens harness `id` on a temp workspace holding `files`. Test helper. */
export async function harnessSession(
  id: string,
  files: Record<string, string>,
): Promise<HarnessSession> {
  const harness = await builtin(id);
  const ws = await tempWorkspace(files);
  let n = 0;
  const dispatch = (name: string, args: unknown, rawArgs?: string) =>
    dispatchToolCall({ id: `c${++n}`, name, args, rawArgs }, {
      harness,
      ctx: ws.ctx,
      emit: () => {},
    });
  return {
    harness,
    ws,
    async call(name, args, rawArgs) {
      const result = await dispatch(name, args, rawArgs);
      return { text: result.text.replaceAll(ws.dir, "{cwd}"), isError: result.isError };
    },
    dispatch,
    [Symbol.asyncDispose]: () => ws[Symbol.asyncDispose](),
  };
}
