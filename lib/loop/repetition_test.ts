import assert from "node:assert/strict";
import { findRepeatedSpan, MAX_SPAN_CHARS, RepetitionDetector } from "./repetition.ts";

const LIMITS = { repeats: 20, minChars: 16 };
const SENTENCE = "I will check the file again. ";

/** Varied prose without any repeated span. */
function prose(chars: number): string {
  let out = "";
  for (let i = 0; out.length < chars; i++) {
    out += `Step ${i} reads line ${i * 7 + 3} of file ${i}. `;
  }
  return out.slice(0, chars);
}

Deno.test("findRepeatedSpan() finds a sentence repeated N times at the end, and where it starts", () => {
  const lead = "Let me look. ";
  assert.equal(findRepeatedSpan(lead + SENTENCE.repeat(19), LIMITS), undefined, "19 is not 20");
  const found = findRepeatedSpan(lead + SENTENCE.repeat(20), LIMITS);
  assert.ok(found);
  assert.equal(found.repeats, 20);
  assert.equal(found.span, SENTENCE, "the unit as it reads, from the start of a sentence");
  const kept = (lead + SENTENCE.repeat(20)).slice(0, found.start + found.span.length);
  assert.equal(kept, lead + SENTENCE, "the text up to the end of the first copy");
});

Deno.test("findRepeatedSpan() counts a short unit joined up to the shortest span", () => {
  const found = findRepeatedSpan("Answer: " + "the ".repeat(100), LIMITS);
  assert.ok(found);
  assert.equal(found.span.trim(), "the");
  assert.ok(found.repeats >= 99, String(found.repeats));
  assert.equal(findRepeatedSpan("the ".repeat(79), LIMITS), undefined, "under 20 × 16 characters");
});

Deno.test("findRepeatedSpan() leaves prose, numbered lines and a rule line alone", () => {
  assert.equal(findRepeatedSpan(prose(20_000), LIMITS), undefined);
  const numbered = Array.from({ length: 200 }, (_, i) => `- item ${i}: done\n`).join("");
  assert.equal(findRepeatedSpan(numbered, LIMITS), undefined);
  assert.equal(findRepeatedSpan(`Title\n${"=".repeat(80)}\n`, LIMITS), undefined);
  assert.equal(findRepeatedSpan(SENTENCE.repeat(50), { repeats: 0, minChars: 16 }), undefined);
});

Deno.test("findRepeatedSpan() finds a long paragraph repeated, up to MAX_SPAN_CHARS", () => {
  const paragraph = prose(1500) + "\n\n";
  const found = findRepeatedSpan(paragraph.repeat(20), LIMITS);
  assert.equal(found?.span, paragraph);
  const tooLong = prose(MAX_SPAN_CHARS + 10);
  assert.equal(findRepeatedSpan(tooLong.repeat(20), LIMITS), undefined);
});

Deno.test("RepetitionDetector finds a loop soon after it starts, counting from the first piece", () => {
  const detector = new RepetitionDetector(LIMITS);
  const lead = prose(100_000) + "\n";
  const stream = lead + SENTENCE.repeat(10_000);
  let found;
  let pushed = 0;
  for (let i = 0; i < stream.length && !found; i += 7) {
    found = detector.push(stream.slice(i, i + 7));
    pushed = i + 7;
  }
  assert.ok(found, "found");
  assert.ok(pushed - lead.length < 21 * SENTENCE.length + 128, `read ${pushed - lead.length}`);
  assert.equal(found.start, lead.length);
  assert.equal(found.span, SENTENCE);
});

Deno.test("RepetitionDetector forgets the text on reset, and with repeats 0 never reports", () => {
  const detector = new RepetitionDetector(LIMITS);
  assert.equal(detector.push(SENTENCE.repeat(19)), undefined);
  detector.reset();
  assert.equal(detector.push(SENTENCE.repeat(5)), undefined, "19 + 5 would have been a loop");
  assert.ok(detector.push(SENTENCE.repeat(15)));
  const off = new RepetitionDetector({ repeats: 0, minChars: 16 });
  assert.equal(off.push(SENTENCE.repeat(1000)), undefined);
});
