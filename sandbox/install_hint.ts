/**
 * The exact command that installs bubblewrap on this machine, for the warning that the sandbox
 * is missing: the first package manager on PATH (apt-get, dnf, pacman, apk), with `sudo` unless
 * the process runs as root. scripts/interpreter and install.sh run the same commands.
 */
import { join } from "node:path";

/** Each package manager and its quiet, non-interactive install command for `bubblewrap`. */
const MANAGERS: ReadonlyArray<[program: string, command: string]> = [
  ["apt-get", "apt-get install -y bubblewrap"],
  ["dnf", "dnf install -y bubblewrap"],
  ["pacman", "pacman -S --noconfirm bubblewrap"],
  ["apk", "apk add bubblewrap"],
];

/** Where to look and who is asking; defaults: the process's PATH and user id. */
export interface InstallHintOptions {
  path?: string;
  root?: boolean;
}

/** The install command, or undefined when no known package manager is on PATH. */
export async function bubblewrapInstallCommand(
  opts: InstallHintOptions = {},
): Promise<string | undefined> {
  const dirs = (opts.path ?? Deno.env.get("PATH") ?? "").split(":").filter(Boolean);
  const root = opts.root ?? Deno.uid() === 0;
  for (const [program, command] of MANAGERS) {
    if (await onPath(program, dirs)) return root ? command : `sudo ${command}`;
  }
  return undefined;
}

async function onPath(program: string, dirs: string[]): Promise<boolean> {
  for (const dir of dirs) {
    const found = await Deno.stat(join(dir, program)).then((s) => s.isFile, () => false);
    if (found) return true;
  }
  return false;
}
