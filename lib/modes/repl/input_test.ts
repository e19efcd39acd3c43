import assert from "node:assert/strict";

const INPUT = new URL("./input.ts", import.meta.url).href;
const DENO = Deno.execPath();

/**
 * A process reading piped stdin through `plainInput()`: its first answer is withdrawn before any
 * line comes, then a line is read. It prints what each read returned.
 */
const SCRIPT = `
import { plainInput } from ${JSON.stringify(INPUT)};
const input = plainInput({ write: () => {}, showPrompt: false });
const turn = new AbortController();
const first = input.answer("? ", turn.signal);
turn.abort();
console.log(JSON.stringify(await first));
console.log(JSON.stringify(await input.line("> ")));
Deno.exit(0);
`;

Deno.test("plainInput() stops reading an answer when its signal fires; the next read gets the line", async () => {
  const child = new Deno.Command(DENO, {
    args: ["eval", "--no-check", SCRIPT],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // A read that is not withdrawn would wait for stdin forever: the deadline ends the process.
  const deadline = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("\n")) {
    const { value, done } = await stdout.read();
    if (done) break;
    seen += value;
  }
  const writer = child.stdin.getWriter();
  if (seen !== "null\n") {
    await writer.close().catch(() => {});
    await child.status;
    await child.stderr.cancel();
    clearTimeout(deadline);
    assert.fail(`the withdrawn answer did not end without a line: ${JSON.stringify(seen)}`);
  }
  await writer.write(new TextEncoder().encode("y\n"));
  await writer.close();
  while (true) {
    const { value, done } = await stdout.read();
    if (done) break;
    seen += value;
  }
  const status = await child.status;
  clearTimeout(deadline);
  const stderr = await new Response(child.stderr).text();
  assert.equal(status.code, 0, stderr);
  assert.equal(
    seen,
    'null\n"y"\n',
    "the line typed later goes to the next read, not the withdrawn one",
  );
});
