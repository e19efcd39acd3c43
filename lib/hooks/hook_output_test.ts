import assert from "node:assert/strict";
import { hookEffect } from "./hook_output.ts";

const HOOK = { label: 'PreToolUse hook "check"', timeoutSec: 600 };

function ran(code: number, out: { stdout?: string; stderr?: string } = {}) {
  return { code, stdout: out.stdout ?? "", stderr: out.stderr ?? "", timedOut: false };
}

const json = (value: unknown) => ran(0, { stdout: JSON.stringify(value) });

Deno.test("hookEffect() blocks on exit 2 with stderr, and warns on exit 2 without it or other codes", () => {
  assert.equal(hookEffect("PreToolUse", ran(2, { stderr: "no\n" }), HOOK).block, "no");
  assert.deepEqual(hookEffect("PreToolUse", ran(2), HOOK), {
    warnings: ['PreToolUse hook "check" exited with code 2 but wrote no reason to stderr'],
    contexts: [],
  });
  assert.deepEqual(hookEffect("PreToolUse", ran(1, { stderr: "boom" }), HOOK).warnings, [
    'PreToolUse hook "check" exited with code 1: boom',
  ]);
  const late = hookEffect("Stop", { ...ran(0), code: null, timedOut: true }, HOOK);
  assert.deepEqual(late.warnings, [
    'PreToolUse hook "check" did not finish within 600s and was stopped',
  ]);
  assert.deepEqual(hookEffect("PermissionRequest", ran(2, { stderr: "never" }), HOOK).permission, {
    allow: false,
    message: "never",
  });
});

Deno.test("hookEffect() reads decisions, rewrites and context from JSON on stdout", () => {
  const deny = hookEffect(
    "PreToolUse",
    json({
      hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "not here" },
    }),
    HOOK,
  );
  assert.equal(deny.block, "not here");
  const rewrite = hookEffect(
    "PreToolUse",
    json({
      hookSpecificOutput: { permissionDecision: "allow", updatedInput: { command: "ls" } },
    }),
    HOOK,
  );
  assert.deepEqual(rewrite.updatedInput, { command: "ls" });
  const context = hookEffect(
    "PostToolUse",
    json({
      systemMessage: "note for you",
      hookSpecificOutput: { additionalContext: "note for the model" },
    }),
    HOOK,
  );
  assert.deepEqual([context.warnings, context.contexts], [["note for you"], [
    "note for the model",
  ]]);
  assert.equal(
    hookEffect("Stop", json({ decision: "block", reason: "go on" }), HOOK).block,
    "go on",
  );
  assert.deepEqual(
    hookEffect(
      "PermissionRequest",
      json({ hookSpecificOutput: { decision: { behavior: "allow" } } }),
      HOOK,
    )
      .permission,
    { allow: true },
  );
  assert.match(
    hookEffect("PreToolUse", ran(0, { stdout: "{oops" }), HOOK).warnings[0],
    /not valid JSON/,
  );
});

Deno.test("hookEffect() takes plain stdout as context only for SessionStart and UserPromptSubmit", () => {
  assert.deepEqual(hookEffect("SessionStart", ran(0, { stdout: "hi\n" }), HOOK).contexts, ["hi"]);
  assert.deepEqual(hookEffect("UserPromptSubmit", ran(0, { stdout: "hi" }), HOOK).contexts, ["hi"]);
  assert.deepEqual(hookEffect("PreToolUse", ran(0, { stdout: "hi" }), HOOK).contexts, []);
});

Deno.test('hookEffect() reads PreToolUse permissionDecision "ask" with its reason', () => {
  const ask = (reason?: string) =>
    hookEffect(
      "PreToolUse",
      json({ hookSpecificOutput: { permissionDecision: "ask", permissionDecisionReason: reason } }),
      HOOK,
    );
  assert.deepEqual(ask("check with me"), { warnings: [], contexts: [], ask: "check with me" });
  assert.equal(ask().ask, 'PreToolUse hook "check" asks for confirmation');
  // The control: "allow" asks nothing.
  const allow = hookEffect(
    "PreToolUse",
    json({ hookSpecificOutput: { permissionDecision: "allow" } }),
    HOOK,
  );
  assert.equal(allow.ask, undefined);
});
