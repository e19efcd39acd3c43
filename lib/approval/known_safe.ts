/**
 * Commands that may run without asking under any approval policy (interfaces.md §7): read-only
 * programs, a few of them only without their writing or program-running options, joined by
 * `&&`, `||`, `;` or `|`. Anything the tokenizer does not fully understand is not known safe.
 */
import { splitPlainCommands } from "./_shell_words.ts";

const ALWAYS_SAFE = new Set([
  "cat",
  "cd",
  "cut",
  "echo",
  "expr",
  "false",
  "grep",
  "head",
  "id",
  "ls",
  "nl",
  "paste",
  "pwd",
  "rev",
  "seq",
  "stat",
  "tail",
  "tr",
  "true",
  "uname",
  "uniq",
  "wc",
  "which",
  "whoami",
  "numfmt",
  "tac",
]);
const SHELLS = new Set(["bash", "sh", "zsh"]);
const MAX_WRAPPER_DEPTH = 2;

const FIND_UNSAFE = new Set([
  "-exec",
  "-execdir",
  "-ok",
  "-okdir",
  "-delete",
  "-fls",
  "-fprint",
  "-fprint0",
  "-fprintf",
]);
const GIT_READ_ONLY = new Set(["status", "log", "diff", "show", "branch"]);
const GIT_REDIRECTING = [
  "--config-env",
  "--exec-path",
  "--git-dir",
  "--namespace",
  "--super-prefix",
  "--work-tree",
];
const GIT_UNSAFE_ARGS = ["--output", "--ext-diff", "--textconv", "--exec", "--paginate"];
const GIT_BRANCH_READ_ONLY = new Set([
  "--list",
  "-l",
  "--show-current",
  "-a",
  "--all",
  "-r",
  "--remotes",
  "-v",
  "-vv",
  "--verbose",
]);

/** True when every command of the shell `command` is known to be read-only and harmless. */
export function isKnownSafeCommand(command: string): boolean {
  return isSafeScript(command, 0);
}

/** True when the argv (not a script) is known safe; a `bash -lc "<script>"` is unwrapped. */
export function isKnownSafeArgv(argv: string[]): boolean {
  return isSafeArgv(argv, 0);
}

function isSafeScript(script: string, depth: number): boolean {
  const commands = splitPlainCommands(script);
  return commands !== undefined && commands.every((argv) => isSafeArgv(argv, depth));
}

function isSafeArgv(argv: string[], depth: number): boolean {
  if (argv.length === 0) return false;
  const program = argv[0].split("/").pop() ?? "";
  const args = argv.slice(1);
  if (SHELLS.has(program)) {
    const wrapped = args.length === 2 && (args[0] === "-c" || args[0] === "-lc");
    return wrapped && depth < MAX_WRAPPER_DEPTH && isSafeScript(args[1], depth + 1);
  }
  if (ALWAYS_SAFE.has(program)) return true;
  switch (program) {
    case "base64":
      return !args.some((a) => a.startsWith("--output") || /^-[A-Za-z]*o/.test(a));
    case "find":
      return !args.some((a) => FIND_UNSAFE.has(a));
    case "rg":
      return !args.some((a) =>
        a === "--pre" || a.startsWith("--pre=") || a === "--hostname-bin" ||
        a.startsWith("--hostname-bin=") || a === "--search-zip" || /^-[A-Za-z]*z/.test(a)
      );
    case "git":
      return isSafeGit(args);
    case "sed":
      return args.length <= 3 && args[0] === "-n" && /^\d+(,\d+)?p$/.test(args[1] ?? "");
    default:
      return false;
  }
}

function isSafeGit(args: string[]): boolean {
  let i = 0;
  while (i < args.length && args[i].startsWith("-")) {
    const opt = args[i];
    if (opt.startsWith("-c") || opt === "-p" || opt === "--paginate") return false;
    if (GIT_REDIRECTING.some((o) => opt === o || opt.startsWith(`${o}=`))) return false;
    i += opt === "-C" ? 2 : 1;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === undefined || !GIT_READ_ONLY.has(sub)) return false;
  if (rest.some((a) => GIT_UNSAFE_ARGS.some((o) => a === o || a.startsWith(`${o}=`)))) {
    return false;
  }
  if (sub !== "branch") return true;
  return rest.every((a) => GIT_BRANCH_READ_ONLY.has(a) || a.startsWith("--format="));
}
