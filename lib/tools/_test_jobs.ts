import { JobRegistry, JOBS_RESOURCE } from "./shell_jobs.ts";
import { type TempWorkspace, tempWorkspace } from "./_test_workspace.ts";

/**
 * A temp workspace holding `files`, whose job registry (and so its jobs and command sessions) is
 * disposed before the folder is removed. Test helper.
 */
export async function jobsWorkspace(files: Record<string, string> = {}): Promise<TempWorkspace> {
  const ws = await tempWorkspace(files);
  const jobs = new JobRegistry({ scratch: ws.ctx.scratch!, stopGraceMs: 200 });
  ws.ctx.resources.set(JOBS_RESOURCE, jobs);
  const dispose = ws[Symbol.asyncDispose].bind(ws);
  return Object.assign(ws, {
    async [Symbol.asyncDispose]() {
      await jobs[Symbol.asyncDispose]();
      await dispose();
    },
  }) as TempWorkspace;
}
