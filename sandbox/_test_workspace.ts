import { type CommandSandbox, openCommandSandbox } from "./command_sandbox.ts";

/** A workspace and the workspace-write sandbox for it. Test helper. */
export interface SandboxWorkspace extends AsyncDisposable {
  ws: string;
  sandbox: CommandSandbox;
  /** Lists the workspace on the host, sorted. */
  names(): Promise<string[]>;
}

/**
 * An empty workspace outside /tmp (every command has a private /tmp, where an escape would not
 * show), after `setup` ran on it, and a workspace-write sandbox for it. Test helper.
 */
export async function sandboxWorkspace(
  prefix: string,
  setup?: (ws: string) => Promise<void>,
): Promise<SandboxWorkspace> {
  const parent = Deno.env.get("HOME") ?? "/var/tmp";
  const ws = await Deno.realPath(await Deno.makeTempDir({ dir: parent, prefix }));
  await setup?.(ws);
  const sandbox = await openCommandSandbox({
    mode: "workspace-write",
    writableRoots: [ws],
    networkAccess: false,
  });
  return {
    ws,
    sandbox,
    names: async () => (await Array.fromAsync(Deno.readDir(ws), (e) => e.name)).sort(),
    async [Symbol.asyncDispose]() {
      await sandbox.close();
      await Deno.remove(ws, { recursive: true });
    },
  };
}
