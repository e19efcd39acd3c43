/**
 * Commands that may run without asking under any approval policy (interfaces.md §7): read-only
 * programs, a few of them only without their writing or program-running options, joined by
 * `&&`, `||`, `;` or `|`. Anything the tokenizer does not fully understand is not known safe,
 * and neither is a program given by path: only a bare name, which the shell looks up in `PATH`.
 *
 * Left out on purpose: `git`, because even `git status`, `log`, `diff` and `show` run programs
 * named in the repository's config (`core.fsmonitor`, `diff.external`, textconv drivers,
 * `gpg.program`), and a `.git` can arrive with the files (an archive, a copied tree).
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
  "wc",
  "which",
  "whoami",
  "numfmt",
  "tac",
]);
/** The shells whose `-c` / `-lc` script is checked; a harness's `shell` must be one of them. */
const STANDARD_SHELLS: ReadonlySet<string> = new Set(["bash", "sh", "zsh"]);
const MAX_WRAPPER_DEPTH = 2;

/** find predicates that run programs, delete files or write to a file. */
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
/** ripgrep options that run programs: a preprocessor, a hostname helper, decompressors. */
const RG_UNSAFE_LONG = ["--pre", "--hostname-bin", "--search-zip"];

/** A shell call as a command capability runs it: `<shell> -c|-lc <command>`. */
export interface ShellCall {
  command: string;
  /** The shell program; absent means bash. */
  shell?: string;
  login?: boolean;
}

/** True when every command of the shell `command` is known to be read-only and harmless. */
export function isKnownSafeCommand(command: string): boolean {
  return isSafeScript(command, 0);
}

/** True when the argv (not a script) is known safe; a `bash -lc "<script>"` is unwrapped. */
export function isKnownSafeArgv(argv: string[]): boolean {
  return isSafeArgv(argv, 0);
}

/** True when `call` runs a standard shell (a bare name) on a known-safe script. */
export function isKnownSafeShellCall(call: ShellCall): boolean {
  const shell = call.shell ?? "bash";
  if (!STANDARD_SHELLS.has(shell)) return false;
  return isSafeArgv([shell, call.login ? "-lc" : "-c", call.command], 0);
}

function isSafeScript(script: string, depth: number): boolean {
  const commands = splitPlainCommands(script);
  return commands !== undefined && commands.every((argv) => isSafeArgv(argv, depth));
}

function isSafeArgv(argv: string[], depth: number): boolean {
  if (argv.length === 0) return false;
  const [program, ...args] = argv;
  if (STANDARD_SHELLS.has(program)) {
    const wrapped = args.length === 2 && (args[0] === "-c" || args[0] === "-lc");
    return wrapped && depth < MAX_WRAPPER_DEPTH && isSafeScript(args[1], depth + 1);
  }
  if (ALWAYS_SAFE.has(program)) return true;
  switch (program) {
    case "base64":
      return atMostOneOperand(args) &&
        !args.some((a) => shortCluster(a).includes("o") || abbreviates(a, "--output"));
    case "find":
      return !args.some((a) => FIND_UNSAFE.has(a));
    case "rg":
      return !args.some((a) =>
        shortCluster(a).includes("z") || RG_UNSAFE_LONG.some((o) => abbreviates(a, o))
      );
    case "sed":
      return isSafeSed(args);
    case "uniq":
      return atMostOneOperand(args);
    default:
      return false;
  }
}

/** `sed -n <N>p [file]` or `sed -n <M>,<N>p [file]`, where the file is not an option. */
function isSafeSed(args: string[]): boolean {
  const file = args[2];
  return args.length <= 3 && args[0] === "-n" && /^\d+(,\d+)?p$/.test(args[1] ?? "") &&
    (file === undefined || file === "-" || !file.startsWith("-"));
}

/** The letters of a short-option word (`-nz` → `nz`), or "" for anything else. */
function shortCluster(arg: string): string {
  return /^-[^-]/.test(arg) ? arg.slice(1) : "";
}

/** True when `arg` is long option `option` or an abbreviation of it, with or without `=value`. */
function abbreviates(arg: string, option: string): boolean {
  const name = arg.split("=")[0];
  return name.length > 2 && name.startsWith("--") && option.startsWith(name);
}

/**
 * True when at most one argument can be an operand. Conservative: from the first word that is
 * not an option (`-` included) every word counts, because a value-taking option's separate
 * value, or option parsing that stops at the first operand (`POSIXLY_CORRECT`), can make any
 * of them an operand; after `--` every word is one. For `uniq`, a second operand is the output
 * file.
 */
function atMostOneOperand(args: string[]): boolean {
  const end = args.indexOf("--");
  const options = end === -1 ? args : args.slice(0, end);
  const first = options.findIndex((a) => a === "-" || !a.startsWith("-"));
  const operands = first !== -1 ? args.length - first : end === -1 ? 0 : args.length - end - 1;
  return operands <= 1;
}
