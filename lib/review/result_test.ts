import assert from "node:assert/strict";
import { parseReview, renderReview } from "./result.ts";

const PLACES = { cwd: "/repo/src", root: "/repo" };

const TWO_FINDINGS = {
  findings: [
    {
      title: "Close the file on the error path",
      body:
        "When `parse()` throws, `handle` stays open.\nEach failed request leaks one descriptor.",
      confidence_score: 0.9,
      priority: 1,
      code_location: {
        absolute_file_path: "/repo/src/reader.ts",
        line_range: { start: 12, end: 15 },
      },
    },
    {
      title: "[P3] Typo in the error message",
      body: "`recieved` should read `received`.",
      confidence_score: 0.6,
      code_location: { absolute_file_path: "lib/errors.ts", line_range: { start: 4, end: 4 } },
    },
  ],
  overall_correctness: "patch is incorrect",
  overall_explanation: "The reader leaks a file handle whenever parsing fails.",
  overall_confidence_score: 0.8,
};

const TWO_FINDINGS_TEXT = `The reader leaks a file handle whenever parsing fails.

src/reader.ts:12-15  [P1]  Close the file on the error path
    When \`parse()\` throws, \`handle\` stays open.
    Each failed request leaks one descriptor.

src/lib/errors.ts:4-4  [P3]  Typo in the error message
    \`recieved\` should read \`received\`.

Verdict: patch is incorrect (confidence 0.80)`;

Deno.test("a JSON review with two findings renders the explanation, each finding and the verdict", () => {
  const review = parseReview(JSON.stringify(TWO_FINDINGS, null, 2));
  assert.equal(review.plain, undefined);
  assert.equal(review.findings.length, 2);
  assert.equal(review.findings[1].priority, 3, "the [P3] tag in the title becomes the priority");
  assert.equal(renderReview(review, PLACES), TWO_FINDINGS_TEXT);
});

Deno.test("the outermost {…} is read when the JSON comes with prose or a code fence", () => {
  const text = "Here is my review:\n```json\n" + JSON.stringify(TWO_FINDINGS) + "\n```\nThanks.";
  assert.equal(renderReview(parseReview(text), PLACES), TWO_FINDINGS_TEXT);
});

Deno.test("a plain-text answer prints as it is", () => {
  const text = "I looked at the diff {briefly} and found nothing wrong.\nShip it.";
  const review = parseReview(text);
  assert.equal(review.plain, text);
  assert.equal(renderReview(review, PLACES), text);
});

Deno.test("JSON that is not a review object is plain text", () => {
  const text = 'The config now reads {"retries": 3}.';
  assert.equal(renderReview(parseReview(text), PLACES), text);
});

Deno.test("paths outside the repository stay absolute; no findings says so", () => {
  const review = parseReview(JSON.stringify({
    findings: [{
      title: "Wrong path",
      body: "",
      priority: 2,
      code_location: { absolute_file_path: "/elsewhere/x.ts", line_range: { start: 3, end: 1 } },
    }],
  }));
  assert.equal(renderReview(review, PLACES), "/elsewhere/x.ts:3-3  [P2]  Wrong path");
  const clean = parseReview(
    '{"findings": [], "overall_correctness": "patch is correct", "overall_explanation": "Fine."}',
  );
  assert.equal(renderReview(clean, PLACES), "Fine.\n\nNo findings.\n\nVerdict: patch is correct");
});

Deno.test("an empty review object says the reviewer gave nothing", () => {
  assert.equal(
    renderReview(parseReview('{"findings": [], "overall_explanation": ""}'), PLACES),
    "Reviewer failed to output a response.",
  );
});
