/**
 * Test helper: which processes run a given command line, read from /proc, so a test can check
 * that a timeout or a stop left nothing behind. In sandbox/ so that tests of every layer may use it.
 */

/** The pids of processes whose argv is exactly `argv` (Linux; none elsewhere). */
export async function processesWith(argv: string[]): Promise<number[]> {
  const wanted = argv.join("\0") + "\0";
  const pids: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
    if (cmdline === wanted) pids.push(Number(entry.name));
  }
  return pids;
}
