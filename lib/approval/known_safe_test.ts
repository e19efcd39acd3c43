import assert from "node:assert/strict";
import { isKnownSafeArgv, isKnownSafeCommand } from "./known_safe.ts";

function check(commands: string[], expected: boolean) {
  for (const command of commands) {
    assert.equal(isKnownSafeCommand(command), expected, `isKnownSafeCommand(${command})`);
  }
}

Deno.test("isKnownSafeCommand() accepts read-only programs and safe compounds", () => {
  check([
    "ls",
    "ls -la src",
    "/bin/ls",
    "git status",
    "ls | wc -l",
    "cat a.txt && echo done",
    "pwd; whoami || true",
    "grep -rn 'foo bar' lib | head -n 5",
    'echo "a \\"quoted\\" word"',
    "ls\nwc -l README.md",
    "ls;",
    "cd lib && ls",
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

Deno.test("isKnownSafeCommand() unwraps bash -lc and sh -c wrappers", () => {
  check(["bash -lc 'ls | wc -l'", 'sh -c "git status"', "zsh -c 'cat a && ls'"], true);
  check(["bash -lc 'ls && rm -rf x'", "bash -x -c ls", "bash script.sh", "bash"], false);
  assert.equal(isKnownSafeArgv(["bash", "-lc", "git log --oneline | head"]), true);
  assert.equal(isKnownSafeArgv(["bash", "-lc", "echo $(id)"]), false);
  assert.equal(isKnownSafeArgv([]), false);
});

Deno.test("isKnownSafeCommand() allows find only without exec, delete or fprint", () => {
  check(["find . -name foo.ts", "find src -type f -maxdepth 2"], true);
  check(
    ["find . -delete", "find . -exec rm {} +", "find . -fprint out", "find . -okdir ls"],
    false,
  );
});

Deno.test("isKnownSafeCommand() allows read-only git subcommands without redirecting options", () => {
  check([
    "git log --oneline -5",
    "git -C lib diff HEAD~1",
    "git --no-pager show HEAD",
    "git branch",
    "git branch --show-current",
    "git branch -a -vv --format=x",
  ], true);
  check([
    "git -c core.pager=x log",
    "git -ccore.pager=x log",
    "git --git-dir=/tmp/x status",
    "git --work-tree /tmp status",
    "git --exec-path=/tmp log",
    "git -p log",
    "git diff --output=/tmp/x",
    "git diff --ext-diff",
    "git log --textconv",
    "git branch new-branch",
    "git branch -D main",
    "git commit -m x",
    "git push",
    "git",
  ], false);
});

Deno.test("isKnownSafeCommand() allows sed -n Np, base64 without -o and rg without --pre", () => {
  check(["sed -n 5p file.txt", "sed -n 1,20p file.txt", "base64 file", "base64 -d f"], true);
  check(["rg -n foo lib", "rg --files"], true);
  check(["sed -n 5p a b", "sed -i s/a/b/ f", "sed 5p f", "sed -n 's/x/y/p' f"], false);
  check(
    ["base64 -o out f", "base64 -oout f", "base64 --output=out f", "base64 --output out"],
    false,
  );
  check(["rg --pre cat foo", "rg --pre=cat foo", "rg -z foo", "rg --search-zip foo"], false);
  check(["rg --hostname-bin=x foo"], false);
});

Deno.test("isKnownSafeCommand() rejects programs outside the lists", () => {
  check(["python3 -c 1", "npm test", "curl x", "cp a b", "rm x", "sudo ls", "env ls"], false);
});
