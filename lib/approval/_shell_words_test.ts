import assert from "node:assert/strict";
import { splitPlainCommands } from "./_shell_words.ts";

/** Commands the tokenizer accepts; the shells must split each into the same words. */
const ACCEPTED = [
  "ls -la src",
  "grep -rn 'foo bar' lib",
  "echo \"a \\\"quoted\\\" word\" 'it'\\''s'",
  "find . '-exec' x '{}' '+'",
  "find . -name '*.ts' -o -name \"[ab]?\"",
  "echo \\{-exec,x\\} a\\ b \\*",
  "cat a=b expr 1 = 1",
  "echo 'multi\nline' \"tab\there\"",
  'echo "" \'\' x""y',
  "sed -n 1p 'a b'",
];

/** The argv each line of `lines` runs with in `shell`, read back from a shell function. */
async function shellWords(shell: string, lines: string[]): Promise<string[][]> {
  const script = [
    "f() { for w in \"$@\"; do printf '%s\\0' \"$w\"; done; printf '\\1'; }",
    ...lines.map((line) => `f ${line}`),
  ].join("\n");
  const out = await new Deno.Command(shell, { args: ["-c", script], stdin: "null" }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const groups = new TextDecoder().decode(out.stdout).split("\u0001").slice(0, -1);
  return groups.map((g) => g.split("\0").slice(0, -1));
}

Deno.test("splitPlainCommands() yields the words bash and sh pass to the program", async () => {
  for (const shell of ["bash", "sh"]) {
    const words = await shellWords(shell, ACCEPTED.map((c) => c.replace(/^\S+ /, "")));
    ACCEPTED.forEach((command, i) => {
      const argv = splitPlainCommands(command)?.[0];
      assert.ok(argv, `splitPlainCommands(${JSON.stringify(command)}) refused it`);
      assert.deepEqual(argv.slice(1), words[i], `${shell}: ${command}`);
    });
  }
});

Deno.test("splitPlainCommands() splits on operators and refuses what it cannot follow", () => {
  assert.deepEqual(splitPlainCommands("ls a && cat b | wc; pwd\nid"), [
    ["ls", "a"],
    ["cat", "b"],
    ["wc"],
    ["pwd"],
    ["id"],
  ]);
  for (const script of ["ls {a,b}", "ls a{b", "ls ~x", "ls ^a", "ls =ls", "ls ?", "ls $x"]) {
    assert.equal(splitPlainCommands(script), undefined, script);
  }
});
