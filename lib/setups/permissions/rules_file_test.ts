import assert from "node:assert/strict";
import { withPermissionRule } from "./rules_file.ts";

const FILE = "/home/u/.openinterpreter/config.toml";

Deno.test("withPermissionRule() adds a rule to an existing table, keeping the rest as written", () => {
  const text = [
    "# my model",
    'model = "gpt"',
    "",
    "# rules I keep",
    "[permission_rules]",
    'deny = ["Bash(rm:*)"]',
    "",
    "[tui]",
    "theme = 'dark' # dark",
    "",
  ].join("\n");
  const out = withPermissionRule(text, FILE, { list: "allow", rule: "Bash(npm test)" });
  assert.equal(
    out,
    [
      "# my model",
      'model = "gpt"',
      "",
      "# rules I keep",
      "[permission_rules]",
      'allow = ["Bash(npm test)"]',
      'deny = ["Bash(rm:*)"]',
      "",
      "[tui]",
      "theme = 'dark' # dark",
      "",
    ].join("\n"),
  );
  assert.equal(withPermissionRule(out, FILE, { list: "deny", rule: "Bash(rm:*)" }), out);
});

Deno.test("withPermissionRule() appends the table to a file without one, or to an empty file", () => {
  assert.equal(
    withPermissionRule('model = "gpt"\n', FILE, { list: "ask", rule: "WebFetch" }),
    'model = "gpt"\n\n[permission_rules]\nask = ["WebFetch"]\n',
  );
  assert.equal(
    withPermissionRule("", FILE, { list: "deny", rule: 'Bash(echo "hi")' }),
    '[permission_rules]\ndeny = ["Bash(echo \\"hi\\")"]\n',
  );
});

Deno.test("withPermissionRule() refuses a table set by dotted keys, naming the file", () => {
  assert.throws(
    () =>
      withPermissionRule('permission_rules.deny = ["Bash"]\n', FILE, {
        list: "allow",
        rule: "Read",
      }),
    /Cannot add the rule to ".*config\.toml" safely/,
  );
});
