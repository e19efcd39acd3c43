/** Ending a child started with `detached: true` (its own process group) with all it started. */

/** Kills the process group of `child` (on Windows, the child), ignoring one already gone. */
export function killProcessGroup(child: { pid: number; kill(signal: Deno.Signal): void }): void {
  try {
    if (Deno.build.os !== "windows") Deno.kill(-child.pid, "SIGKILL");
    else child.kill("SIGKILL");
  } catch {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }
}
