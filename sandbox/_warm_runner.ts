/**
 * The program that runs as pid 1 of a sandbox prepared ahead (`warm_sandbox.ts`), and the
 * request it reads: the one command it starts.
 */

export const READY = "oi-ready\n";
export const UNSUPPORTED = "oi-unsupported\n";
/** `$0` of the runner, which shows as the sandbox's pid 1 in `ps`. */
export const RUNNER_NAME = "oi-prepared-sandbox";

/**
 * The runner. The request is `<size>\n` and `size` bytes: a line `<n> <nenv> <len>...` then the
 * n fields back to back (cwd, nenv `NAME=value` entries, the argv), read in one go with `-N` in
 * the C locale, where lengths count bytes. The command runs in a subshell, so that `exec` leaves
 * SHLVL alone, started with job control on for its own process group, then off, so that `wait`
 * returns only when it ends and reports nothing. The runner's own messages go to /dev/null.
 */
export const RUNNER_SCRIPT = `exec 3>&2 2>/dev/null
LC_ALL=C
unset PATH PWD OLDPWD SHLVL
if (( BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1] < 401 )); then printf '${UNSUPPORTED}'; exit 125; fi
printf '${READY}'
IFS= read -r size && IFS= read -r -N "$size" body && (( \${#body} == size )) || exit 125
set -f
IFS=' ' lens=(\${body%%$'\\n'*})
body=\${body#*$'\\n'}
fields=() at=0
for ((i = 2; i < lens[0] + 2; i++)); do fields+=("\${body:at:lens[i]}"); ((at += lens[i])); done
(( at == \${#body} )) || exit 125
nenv=\${lens[1]}
set -m
(
  exec </dev/null 2>&3 3>&-
  cd -P -- "\${fields[0]}" || exit 1
  (( nenv == 0 )) || export -- "\${fields[@]:1:nenv}" || exit 125
  exec -- "\${fields[@]:1+nenv}"
) &
set +m
wait "$!"
`;

/** A command for a prepared sandbox. */
export interface WarmRequest {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * Names bash does not pass through `export` unchanged: read-only ones, ones whose value bash
 * computes, and ones that change how it runs the command.
 */
const BASH_SPECIAL = new Set([
  "BASHOPTS",
  "BASHPID",
  "BASH_ALIASES",
  "BASH_ARGC",
  "BASH_ARGV",
  "BASH_ARGV0",
  "BASH_CMDS",
  "BASH_COMPAT",
  "BASH_LINENO",
  "BASH_MONOSECONDS",
  "BASH_REMATCH",
  "BASH_SOURCE",
  "BASH_SUBSHELL",
  "BASH_VERSINFO",
  "BASH_XTRACEFD",
  "DIRSTACK",
  "EPOCHREALTIME",
  "EPOCHSECONDS",
  "EUID",
  "EXECIGNORE",
  "FUNCNAME",
  "FUNCNEST",
  "GROUPS",
  "HISTCMD",
  "LINENO",
  "PIPESTATUS",
  "POSIXLY_CORRECT",
  "PPID",
  "RANDOM",
  "SECONDS",
  "SHELLOPTS",
  "SRANDOM",
  "UID",
  "_",
]);

/**
 * Whether the runner can start `req` exactly as asked: no NUL byte anywhere, a PATH to find the
 * program with, and only variable names bash exports unchanged.
 */
export function warmable(req: WarmRequest): boolean {
  if (req.argv.length === 0 || req.env.PATH === undefined) return false;
  const texts = [req.cwd, ...req.argv, ...Object.values(req.env)];
  if (texts.some((text) => text.includes("\0"))) return false;
  return Object.keys(req.env).every((name) => NAME.test(name) && !BASH_SPECIAL.has(name));
}

/** The request the runner reads (see `SCRIPT`). */
export function encodeRequest(req: WarmRequest): Uint8Array {
  const encoder = new TextEncoder();
  const env = Object.entries(req.env).map(([name, value]) => `${name}=${value}`);
  const fields = [req.cwd, ...env, ...req.argv].map((field) => encoder.encode(field));
  const head = encoder.encode(
    `${fields.length} ${env.length} ${fields.map((f) => f.length).join(" ")}\n`,
  );
  const size = head.length + fields.reduce((sum, f) => sum + f.length, 0);
  const prefix = encoder.encode(`${size}\n`);
  const out = new Uint8Array(prefix.length + size);
  let at = 0;
  for (const part of [prefix, head, ...fields]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
