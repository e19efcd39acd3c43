import assert from "node:assert/strict";
import type { EffectiveConfig } from "../config/mod.ts";
import { configChecks, terminalCheck } from "./doctor_checks.ts";

Deno.test("terminalCheck names TERM and whether colour is on, and why", () => {
  assert.match(terminalCheck({ TERM: "dumb" }).detail, /^TERM=dumb; colour off \(TERM=dumb\);/);
  assert.match(terminalCheck({ TERM: "xterm", NO_COLOR: "" }).detail, /colour off \(NO_COLOR\)/);
  const truecolor = terminalCheck({ TERM: "xterm", COLORTERM: "truecolor" });
  assert.match(truecolor.detail, /colour on \(COLORTERM=truecolor\)/);
  assert.match(terminalCheck({}).detail, /^TERM=\(unset\)/);
  assert.equal(truecolor.ok, true);
});

Deno.test("configChecks lists the files read and fails on warnings, with a fix", () => {
  const base = { home: "/h", projectRoot: "/p", files: ["/h/config.toml"], warnings: [] };
  const [clean, ...rest] = configChecks(base as unknown as EffectiveConfig);
  assert.match(clean.detail, /files read: \/h\/config\.toml; project \/p not trusted/);
  assert.deepEqual(rest, []);
  const warned = configChecks(
    { ...base, trust: "trusted", warnings: ['Unknown key "modle"'] } as unknown as EffectiveConfig,
  );
  assert.match(warned[0].detail, /project trusted/);
  assert.equal(warned[1].ok, false);
  assert.match(warned[1].detail, /modle/);
  assert.ok(warned[1].fix);
});
