import assert from "node:assert/strict";
import type { HookView } from "../../hooks/user_hooks.ts";
import { makeStyle } from "../term/style.ts";
import { chooseHooks, hookListLines } from "./hooks_command.ts";

const view = (index: number, scope: "user" | "project", trusted: boolean): HookView => ({
  index,
  event: "PreToolUse",
  matcher: "Bash",
  command: `check${index}.sh`,
  timeoutSec: 600,
  source: `/x/${scope}.toml`,
  scope,
  trusted,
});

const LIST = [view(1, "user", true), view(2, "project", false), view(3, "project", false)];

Deno.test("chooseHooks() takes numbers or all, and says what is wrong with anything else", () => {
  assert.deepEqual(chooseHooks(LIST, ["all"]), [LIST[1], LIST[2]]);
  assert.deepEqual(chooseHooks(LIST, ["3", "3"]), [LIST[2]]);
  assert.equal(
    chooseHooks(LIST, []),
    "Name the hooks to trust: /hooks trust 2, or /hooks trust all",
  );
  assert.equal(chooseHooks(LIST, ["9"]), "No hook 9: /hooks lists them with their numbers");
  assert.equal(chooseHooks(LIST, ["1"]), "Hook 1 runs already: it is your own");
  assert.equal(chooseHooks([LIST[0]], ["all"]), "Every hook is trusted already");
});

Deno.test("hookListLines() shows each hook's event, matcher, command, source and trust", () => {
  assert.deepEqual(hookListLines(LIST.slice(0, 2), makeStyle(false)), [
    "1. PreToolUse  matcher Bash  yours",
    "   check1.sh  (timeout 600s)",
    "   user: /x/user.toml",
    "2. PreToolUse  matcher Bash  untrusted: /hooks trust 2",
    "   check2.sh  (timeout 600s)",
    "   project: /x/project.toml",
    "1 project hook will not run until you trust it: /hooks trust N, or /hooks trust all",
  ]);
});
