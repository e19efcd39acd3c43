/**
 * The PID namespace a hook runs in on Linux (`run_hook.ts`): bubblewrap with the host bound
 * read-write and a PID namespace of its own, so that the end of the hook's shell, or of the
 * interpreter (`--die-with-parent`), ends every process the hook started.
 */

/** bwrap's arguments that put `argv` in its own PID namespace and change nothing else. */
function namespaceArgs(): string[] {
  return ["--dev-bind", "/", "/", "--unshare-pid", "--die-with-parent", "--proc", "/proc"];
}

/** The argv that runs `argv` under `bwrap` in its own PID namespace. */
export function underPidNamespace(bwrap: string, argv: string[]): string[] {
  return [bwrap, ...namespaceArgs(), "--", ...argv];
}

/** `/usr/bin/bwrap` when it exists, else `bwrap` to be found on PATH. */
export async function bwrapProgram(): Promise<string> {
  const info = await Deno.stat("/usr/bin/bwrap").catch(() => undefined);
  return info?.isFile ? "/usr/bin/bwrap" : "bwrap";
}

/** Whether `bwrap` can make the namespace here (user namespaces may be disabled). */
export async function pidNamespaceWorks(bwrap: string): Promise<boolean> {
  const [cmd, ...args] = underPidNamespace(bwrap, ["/bin/sh", "-c", ":"]);
  return await new Deno.Command(cmd, { args, stdin: "null", stdout: "null", stderr: "null" })
    .output().then((out) => out.success, () => false);
}
