/**
 * Facts from `/proc` for `run_record.ts` and `placeholders.ts`. Deno refuses to read `/proc`
 * without `--allow-all` (`NotCapable`), which the agent does not run with, so one `/bin/sh` reads
 * them per check: which file a process has open on a descriptor, a process's state and pid
 * namespace, and the mount points of every mount namespace.
 */

/** What `/proc` said about one process. */
export interface ProcessFacts {
  /** False when `/proc/<pid>` is gone. */
  exists: boolean;
  /** The state letter of `/proc/<pid>/stat` (`R`, `S`, `Z`, ...). */
  state?: string;
  /** `readlink /proc/<pid>/ns/pid`; undefined when it cannot be read (an exiting process). */
  pidNs?: string;
}

/** The answer of `procFacts()`. */
export interface ProcFacts {
  /** The pid namespace of this process (the shell is its child, in the same one). */
  ownPidNs: string;
  /** Per pid asked in `fdOf`: the open file's path, null when not open, "?" when unreadable. */
  fds: Map<number, string | null>;
  processes: Map<number, ProcessFacts>;
}

const SCRIPT = `
fd="$1"; shift
echo "self $(readlink /proc/$$/ns/pid)"
for a in "$@"; do
  p=\${a#*:}
  case $a in
    fd:*)
      if ! ls "/proc/$p/fd" >/dev/null 2>&1; then
        if [ -d "/proc/$p" ]; then echo "fd $p ?"; else echo "fd $p -"; fi
      elif [ -L "/proc/$p/fd/$fd" ]; then
        echo "fd $p =$(readlink "/proc/$p/fd/$fd")"
      else
        echo "fd $p -"
      fi ;;
    pid:*)
      if read -r st < "/proc/$p/stat" 2>/dev/null; then
        rest=\${st##*) }
        echo "pid $p \${rest%% *} $(readlink "/proc/$p/ns/pid" 2>/dev/null || echo -)"
      else
        echo "pid $p -"
      fi ;;
  esac
done
`;

/** Asks `/proc` which file each of `fdOf` has open on `fd`, and how each of `pids` is. */
export async function procFacts(
  query: { fd: number; fdOf: number[]; pids: number[] },
): Promise<ProcFacts> {
  const args = [...query.fdOf.map((p) => `fd:${p}`), ...query.pids.map((p) => `pid:${p}`)];
  const out = await sh(SCRIPT, [String(query.fd), ...args]);
  const facts: ProcFacts = { ownPidNs: "", fds: new Map(), processes: new Map() };
  for (const line of out.split("\n")) {
    const [kind, pid, ...rest] = line.split(" ");
    if (kind === "self") facts.ownPidNs = pid ?? "";
    else if (kind === "fd") facts.fds.set(Number(pid), fdTarget(rest.join(" ")));
    else if (kind === "pid") {
      facts.processes.set(
        Number(pid),
        rest[0] === "-" || rest[0] === undefined
          ? { exists: false }
          : { exists: true, state: rest[0], pidNs: rest[1] === "-" ? undefined : rest[1] },
      );
    }
  }
  return facts;
}

/** Every mount point of every mount namespace whose processes this user may inspect. */
export async function allMountPoints(): Promise<Set<string>> {
  const out = await sh("cat /proc/[0-9]*/mountinfo 2>/dev/null | cut -d' ' -f5 | sort -u", []);
  const points = new Set<string>();
  for (const line of out.split("\n")) {
    if (line) {
      points.add(line.replace(/\\([0-7]{3})/g, (_, o) => String.fromCharCode(parseInt(o, 8))));
    }
  }
  return points;
}

function fdTarget(text: string): string | null {
  if (text === "-") return null;
  return text.startsWith("=") ? text.slice(1) : "?";
}

async function sh(script: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("/bin/sh", {
    args: ["-c", script, "sh", ...args],
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin:/usr/sbin:/sbin", LC_ALL: "C" },
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  if (!out.success) throw new Error(`Cannot read /proc: /bin/sh exited with ${out.code}`);
  return new TextDecoder().decode(out.stdout);
}
