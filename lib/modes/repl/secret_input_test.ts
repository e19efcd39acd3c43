import assert from "node:assert/strict";
import { feedSecret, type SecretState } from "./secret_input.ts";

function feed(...chunks: string[]): SecretState {
  let state: SecretState = { text: "", pasting: false };
  for (const chunk of chunks) state = feedSecret(state, chunk);
  return state;
}

Deno.test("feedSecret() keeps typed characters and ends at Enter", () => {
  assert.deepEqual(feed("sk-", "abc\r", "ignored"), {
    text: "sk-abc",
    pasting: false,
    done: "enter",
  });
  assert.equal(feed("abc\n").done, "enter");
  assert.equal(feed("abc").done, undefined);
});

Deno.test("feedSecret() deletes with Backspace and Ctrl-U, and cancels on Ctrl-C or an empty Ctrl-D", () => {
  assert.equal(feed("abcd\x7f\x7f", "x\b", "y\r").text, "aby");
  assert.equal(feed("abc\x15de\r").text, "de");
  assert.equal(feed("abc\x03").done, "cancel");
  assert.equal(feed("\x04").done, "cancel");
  assert.equal(feed("a\x04b\r").text, "ab");
});

Deno.test("feedSecret() drops escape sequences and keeps a paste whole, newlines and all", () => {
  assert.equal(feed("a\x1b[D\x1b[A\x1bOBb\r").text, "ab");
  const pasted = feed("\x1b[200~sk-pasted\r\n\x1b[201~");
  assert.deepEqual(pasted, { text: "sk-pasted", pasting: false });
  assert.equal(feedSecret(pasted, "\r").done, "enter");
  // A marker split across two reads is still a marker.
  assert.deepEqual(feed("\x1b[20", "0~key\r", "\x1b[201~\r"), {
    text: "key",
    pasting: false,
    done: "enter",
  });
});
