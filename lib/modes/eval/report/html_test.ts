import assert from "node:assert/strict";
import {
  assertGolden,
  makeRecord,
  realisticRecords,
  realisticTrajectories,
} from "./_test_records.ts";
import { renderHtml } from "./html.ts";

const page = () =>
  renderHtml(realisticRecords(), realisticTrajectories(), { title: "eval: fix-bug <job 1>" });

Deno.test("renderHtml() matches tests/golden/eval/report.html", async () => {
  await assertGolden("report.html", page());
});

Deno.test("renderHtml() loads nothing: no script, stylesheet link or remote asset", () => {
  const html = page();
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /<link/i);
  assert.doesNotMatch(html, /@import|url\(/i);
  assert.doesNotMatch(html, /\b(src|href|srcset)\s*=\s*["']?(https?:)?\/\//i);
  assert.doesNotMatch(html, /https?:/i);
  assert.match(html, /<style>[^<]*<\/style>/);
});

Deno.test("renderHtml() links every run, and every link has a target", () => {
  const html = page();
  const ids = new Set([...html.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]));
  const links = [...html.matchAll(/\bhref="#([^"]+)"/g)].map((m) => m[1]);
  for (const link of links) assert.ok(ids.has(link), `#${link} has no target`);
  for (const record of realisticRecords()) {
    assert.ok(links.includes(`run-${record.trial}`), `${record.trial} is not linked`);
    assert.ok(ids.has(`run-${record.trial}`), `${record.trial} has no section`);
  }
});

Deno.test("renderHtml() escapes the trajectory's text", () => {
  const html = page();
  assert.ok(!html.includes("<script>alert"));
  assert.ok(html.includes(
    "Running &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; " +
      "&quot;friends&quot;",
  ));
  assert.ok(html.includes("exit 1\n&lt;img src=x&gt;"));
  assert.ok(html.includes("echo &#39;&lt;b&gt;&#39;"));
  assert.ok(!html.includes("<img"));
  assert.ok(!html.includes("<b>"));
  assert.match(html, /<title>eval: fix-bug &lt;job 1&gt;<\/title>/);
});

Deno.test("renderHtml() shows a transcript: messages, reasoning, calls, outputs, metrics", () => {
  const html = page();
  assert.match(html, /<details><summary>reasoning<\/summary><div class="text">The test says/);
  assert.match(html, /<code>read<\/code>/);
  assert.ok(
    html.includes('<pre class="args">{\n  &quot;path&quot;: &quot;src/sum.ts&quot;\n}</pre>'),
  );
  assert.ok(html.includes("export const sum = (a, b) =&gt; a - b;"));
  assert.ok(html.includes("3,000 in · 120 out · 2,000 cached"));
  assert.match(html, /<code>bash<\/code> <span class="id">c1<\/span> <span class="failed">failed/);
  assert.ok(html.includes("Stopped by the loop guard: the same call three times."));
});

Deno.test("renderHtml() summarizes each run's record and says when it has no trajectory", () => {
  const html = page();
  const section = (trial: string) => html.split(`id="run-${trial}"`)[1].split("</section>")[0];
  const claude = section("fix-bug__claude-code__2");
  assert.match(claude, /Failed calls<\/dt><dd>arguments 1, command 2/);
  assert.match(claude, /No trajectory was recorded for this run\./);
  assert.match(claude, /interpreter resume ses_claude-code_2/);
  assert.match(section("fix-bug__claude-code__3"), /none \(the run never started a session\)/);
  const minimal = section("fix-bug__minimal__1");
  assert.match(minimal, /failed<\/span><\/h3>/);
  assert.match(minimal, /Status<\/dt><dd>repeated_call/);
  assert.match(minimal, /1 by the loop guard/);
  assert.match(minimal, /Diff<\/dt><dd>0 files, \+0 −0/);
});

Deno.test("renderHtml() shows a run's error, unknown cost and missing diff", () => {
  const html = renderHtml(
    [
      makeRecord({ error: "check timed out <after 60s>", cost_usd: null, diff: null }),
    ],
    new Map(),
    { title: "t" },
  );
  assert.ok(html.includes("Error</dt><dd>check timed out &lt;after 60s&gt;"));
  assert.ok(html.includes("unknown (no price for the model)"));
  assert.ok(html.includes("Diff</dt><dd>not taken"));
});

Deno.test("renderHtml() with no runs says so", () => {
  assert.match(renderHtml([], new Map(), { title: "t" }), /No runs to report\./);
});
