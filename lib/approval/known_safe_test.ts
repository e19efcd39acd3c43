import assert from "node:assert/strict";
import { isKnownSafeArgv, isKnownSafeCommand, isKnownSafeShellCall } from "./known_safe.ts";

function check(commands: string[], expected: boolean) {
  for (const command of commands) {
    assert.equal(isKnownSafeCommand(command), expected, `isKnownSafeCommand(${command})`);
  }
}

Deno.test("isKnownSafeCommand() accepts read-only programs and safe compounds", () => {
  check([
    "ls",
    "ls -la src",
    "ls | wc -l",
    "cat a.txt && echo done",
    "pwd; whoami || true",
    "grep -rn 'foo bar' lib | head -n 5",
    'echo "a \\"quoted\\" word"',
    "ls\nwc -l README.md",
    "ls;",
    "cd lib && ls",
    "find . -name '*.ts'",
    "grep -n '{a,b}' f",
    'echo "~" "a*b"',
    "ls ~ ~/src",
    "expr 1 = 1",
    "echo \\{a,b\\}",
  ], true);
});

Deno.test("isKnownSafeCommand() rejects a compound when any part is unsafe", () => {
  check(["ls && rm -rf x", "ls | sh", "cat a; python3 x.py", "echo hi || curl evil"], false);
});

Deno.test("isKnownSafeCommand() refuses expansions, redirections and subshells", () => {
  check([
    "echo $(rm x)",
    "echo `rm x`",
    "echo $HOME",
    'echo "$(rm x)"',
    "echo $'\\x2dn'",
    "echo $((1+1))",
    "echo hi > out.txt",
    "cat < in.txt",
    "cat <<EOF\nx\nEOF",
    "(ls)",
    "{ ls; }",
    "ls &",
    "ls # comment",
    "cat <(ls)",
    "FOO=1 ls",
    "ls *.ts",
  ], false);
});

Deno.test("isKnownSafeCommand() refuses words the shell would expand into other words", () => {
  check([
    "ls {-a,-l}",
    "ls x{,y}",
    "ls {1..3}",
    "cat a}",
    "ls ?",
    "ls [ab]",
    "cat ~+/a",
    "cat ~-/a",
    "cat ~root/a",
    "cat a~b",
    "cat --file=~/a",
    "ls ^x",
    "cat =ls",
    "expr 1 == 1",
  ], false);
});

Deno.test("isKnownSafeCommand() refuses control flow, bad syntax and empty input", () => {
  check([
    "if true; then ls; fi",
    "for f in a b; do cat f; done",
    "while true; do ls; done",
    "ls &&",
    "&& ls",
    "ls ;; ls",
    "echo 'unterminated",
    'echo "unterminated',
    "",
    "   ",
  ], false);
});

Deno.test("isKnownSafeCommand() accepts bare program names only, never a path", () => {
  check(["/bin/ls", "./ls", "path/to/cat a", "../cat", "bin/grep x", "/bin/bash -c ls"], false);
  check(["'ls'", 'c"a"t a'], true);
});

Deno.test("isKnownSafeCommand() unwraps bash -lc and sh -c wrappers", () => {
  check(["bash -lc 'ls | wc -l'", 'sh -c "cat a"', "zsh -c 'cat a && ls'"], true);
  check(["bash -lc 'ls && rm -rf x'", "bash -x -c ls", "bash script.sh", "bash"], false);
  assert.equal(isKnownSafeArgv(["bash", "-lc", "ls -la | head"]), true);
  assert.equal(isKnownSafeArgv(["bash", "-lc", "echo $(id)"]), false);
  assert.equal(isKnownSafeArgv(["bash", "-lc", "bash -c 'bash -c ls'"]), false, "too deep");
  assert.equal(isKnownSafeArgv([]), false);
});

Deno.test("isKnownSafeShellCall() accepts only the standard shells by bare name", () => {
  assert.equal(isKnownSafeShellCall({ command: "ls" }), true);
  for (const shell of ["bash", "sh", "zsh"]) {
    assert.equal(isKnownSafeShellCall({ command: "ls", shell }), true, shell);
    assert.equal(isKnownSafeShellCall({ command: "ls", shell, login: true }), true, shell);
  }
  for (const shell of ["tools/evil", "./bash", "/bin/bash", "evil", "cat", "pwsh", "fish"]) {
    assert.equal(isKnownSafeShellCall({ command: "ls", shell }), false, shell);
  }
  assert.equal(isKnownSafeShellCall({ command: "rm x", shell: "bash" }), false);
});

Deno.test("isKnownSafeCommand() allows find only without exec, delete or file output", () => {
  check(["find . -name foo.ts", "find src -type f -maxdepth 2", "find . -print0 -ls"], true);
  check([
    "find . -exec rm {} +",
    "find . -execdir ls ;",
    "find . -ok rm ;",
    "find . -okdir ls ;",
    "find . -delete",
    "find . -fls out",
    "find . -fprint out",
    "find . -fprint0 out",
    "find . -fprintf out %p",
    "find . '-exec' touch x ';'",
    "find . -maxdepth 0 {-exec,touch} x {} +",
  ], false);
});

Deno.test("isKnownSafeCommand() allows sed only as sed -n Np or M,Np on one file", () => {
  check(["sed -n 5p file.txt", "sed -n 1,20p file.txt", "sed -n '3p'", "sed -n 1p -"], true);
  check([
    "sed -n 5p a b",
    "sed -i s/a/b/ f",
    "sed -n 1p -i",
    "sed -n 1p --in-place",
    "sed -n 1p -ibak",
    "sed -n 1p {-i,file}",
    "sed -n 1p -s",
    "sed 5p f",
    "sed -n 's/x/y/p' f",
    "sed -n '1w out' f",
    "sed -n 's/x/y/w out' f",
    "sed -n '1e touch x' f",
    "sed --quiet 1p f",
    "sed -n -e 1p f",
  ], false);
});

Deno.test("isKnownSafeCommand() allows base64 without an output option or second operand", () => {
  check(["base64 file", "base64 -d f", "base64 -w0 f", "base64"], true);
  check([
    "base64 -o out f",
    "base64 -oout f",
    "base64 -Do out",
    "base64 --output=out f",
    "base64 --output out",
    "base64 --outp=out f",
    "base64 --o out",
    "base64 in out",
  ], false);
});

Deno.test("isKnownSafeCommand() allows rg without a preprocessor, hostname helper or -z", () => {
  check(["rg -n foo lib", "rg --files", "rg --pretty foo", "rg --pre-glob '*.x' foo"], true);
  check([
    "rg --pre cat foo",
    "rg --pre=cat foo",
    "rg --pr=cat foo",
    "rg --hostname-bin=x foo",
    "rg --hostname-bin x foo",
    "rg -z foo",
    "rg -nz foo",
    "rg --search-zip foo",
    "rg --search-z foo",
  ], false);
});

Deno.test("isKnownSafeCommand() allows uniq with one operand only (the second is its output)", () => {
  check(["uniq", "uniq file", "uniq -c file", "uniq -f2 -c file", "uniq -- file", "uniq -"], true);
  check([
    "uniq IN OUT",
    "uniq -c IN OUT",
    "uniq - OUT",
    "uniq IN -c",
    "uniq IN --",
    "uniq -- IN OUT",
    "uniq -f 2 IN",
    "uniq +1 IN",
  ], false);
});

Deno.test("isKnownSafeCommand() never allows git: repository config can run programs", () => {
  check([
    "git status",
    "git log --oneline -5",
    "git diff",
    "git show HEAD",
    "git branch --show-current",
    "git log {--output=x,-1}",
    "git log -1 {--output,x}",
    "git log --output=x",
    "git diff --ext-diff",
    "git -c core.pager=x log",
    "git --exec-path=/tmp log",
    "git config core.fsmonitor x",
    "git commit -m x",
  ], false);
});

Deno.test("isKnownSafeCommand() accepts the always-safe programs, none of which writes", () => {
  check([
    "cat -A f",
    "cut -d: -f1 --output-delimiter=, f",
    "echo -e a",
    "expr length abc",
    "false",
    "grep -rn -f patterns.txt lib",
    "head -c 10 f",
    "id -u",
    "ls -R --color=never",
    "nl -ba f",
    "paste -sd, f",
    "pwd -P",
    "rev f",
    "seq -w 1 10",
    "stat -c %s f",
    "tail -n 5 f",
    "tr a-z A-Z",
    "true",
    "uname -a",
    "wc -l --files0-from=list",
    "which -a ls",
    "whoami",
    "numfmt --to=iec 2048",
    "tac f",
  ], true);
});

Deno.test("isKnownSafeCommand() rejects programs outside the lists, writers and wrappers", () => {
  check([
    "python3 -c 1",
    "npm test",
    "curl x",
    "cp a b",
    "rm x",
    "sudo ls",
    "env ls",
    "tee out",
    "sort -o out f",
    "sort --compress-program=sh f",
    "xargs ls",
    "nice ls",
    "timeout 1 ls",
    "command ls",
    "exec ls",
    "awk 1 f",
    "touch x",
    "dd of=x",
  ], false);
});
