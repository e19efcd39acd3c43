import assert from "node:assert/strict";
import { UserError } from "../../errors.ts";
import { readPrompt } from "./prompt_input.ts";

function source(argument: string | undefined, stdin: string | null) {
  const notes: string[] = [];
  return {
    notes,
    src: {
      argument,
      stdinIsTerminal: stdin === null,
      readStdin: () => Promise.resolve(stdin ?? ""),
      note: (line: string) => notes.push(line),
    },
  };
}

Deno.test("readPrompt() uses the argument when stdin is a terminal", async () => {
  assert.equal(await readPrompt(source("fix it", null).src), "fix it");
});

Deno.test("readPrompt() appends piped stdin in a <stdin> block", async () => {
  const s = source("fix it", "trace line");
  assert.equal(await readPrompt(s.src), "fix it\n\n<stdin>\ntrace line\n</stdin>");
  assert.deepEqual(s.notes, ["Reading additional input from stdin..."]);
});

Deno.test("readPrompt() ignores empty piped stdin when an argument is given", async () => {
  assert.equal(await readPrompt(source("fix it", "  \n").src), "fix it");
});

Deno.test("readPrompt() reads the whole prompt from stdin when no argument is given", async () => {
  assert.equal(await readPrompt(source(undefined, "from pipe\n").src), "from pipe\n");
});

Deno.test("readPrompt() forces stdin for '-'", async () => {
  assert.equal(await readPrompt(source("-", "piped").src), "piped");
});

Deno.test("readPrompt() fails without an argument on a terminal", async () => {
  await assert.rejects(readPrompt(source(undefined, null).src), UserError);
});

Deno.test("readPrompt() fails when stdin is empty and no argument is given", async () => {
  await assert.rejects(readPrompt(source(undefined, "").src), /No prompt provided via stdin/);
});
