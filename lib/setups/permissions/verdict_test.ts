import assert from "node:assert/strict";
import { parseRule, type PermissionRule, type RuleList } from "./rules.ts";
import { ruleVerdict } from "./verdict.ts";

const CWD = "/work/repo";

function rules(lists: Partial<Record<RuleList, string[]>>): PermissionRule[] {
  return Object.entries(lists).flatMap(([list, texts]) =>
    texts!.map((text) =>
      parseRule(text, {
        list: list as RuleList,
        source: "/work/repo/.claude/settings.json",
        scope: "project",
        root: CWD,
      })
    )
  );
}

function verdict(r: PermissionRule[], capability: string, input: unknown) {
  const found = ruleVerdict(r, { capability, input, cwd: CWD, userHome: "/home/u" });
  return found && `${found.list} ${found.rule.text}`;
}

const shell = (command: string) => ["shell.run", { command }] as const;

Deno.test("ruleVerdict() denies a command when any part matches, whatever the wrappers", () => {
  const r = rules({ deny: ["Bash(rm:*)"], allow: ["Bash(rm -f tmp.txt)", "Bash(ls *)"] });
  assert.equal(verdict(r, ...shell("rm -f habits.py")), "deny Bash(rm:*)");
  assert.equal(verdict(r, ...shell("ls && timeout 5 rm -rf x")), "deny Bash(rm:*)");
  assert.equal(verdict(r, ...shell("FOO=1 nice -n 5 rm x")), "deny Bash(rm:*)");
  assert.equal(verdict(r, ...shell("echo $(rm x)")), "deny Bash(rm:*)");
  assert.equal(verdict(r, ...shell("ls -la | grep x")), undefined, "grep is not allowed");
  assert.equal(verdict(r, ...shell("ls -la; ls")), "allow Bash(ls *)");
  assert.equal(verdict(r, ...shell("lsof")), undefined, "ls * needs a word boundary");
});

Deno.test("ruleVerdict() allows a command only when every part matches, and not past PATH=", () => {
  const r = rules({ allow: ["Bash(npm run test:*)", "Bash(git status)"] });
  assert.equal(verdict(r, ...shell("npm run test:unit")), "allow Bash(npm run test:*)");
  assert.equal(verdict(r, ...shell("git status && npm run test")), "allow Bash(git status)");
  assert.equal(verdict(r, ...shell("npm run test:unit && curl x")), undefined);
  assert.equal(verdict(r, ...shell("PATH=/tmp npm run test:unit")), undefined);
  assert.equal(verdict(r, "shell.run", { command: "echo 'a && npm run build'" }), undefined);
});

Deno.test("ruleVerdict() matches Read and Edit paths gitignore-style, for every edit tool", () => {
  const r = rules({ deny: ["Read(./secrets/**)", "Edit(/src/**)", "Read(.env)"] });
  assert.equal(verdict(r, "fs.read", { path: "secrets/a.env" }), "deny Read(./secrets/**)");
  assert.equal(verdict(r, "fs.read", { path: "/work/repo/secrets" }), "deny Read(./secrets/**)");
  assert.equal(verdict(r, "fs.read", { path: "app/.env" }), "deny Read(.env)", "any depth in deny");
  assert.equal(verdict(r, "fs.read", { path: "src/a.ts" }), undefined);
  assert.equal(verdict(r, "fs.write", { path: "src/a.ts" }), "deny Edit(/src/**)");
  assert.equal(verdict(r, "fs.edit", { path: "secrets/k" }), "deny Read(./secrets/**)");
  const patch = "*** Begin Patch\n*** Add File: src/new.ts\n+x\n*** End Patch";
  assert.equal(verdict(r, "fs.apply_patch", { patch }), "deny Edit(/src/**)");
  assert.equal(
    verdict(r, "fs.str_replace_editor", { command: "view", path: "secrets/k" }),
    "deny Read(./secrets/**)",
  );
});

Deno.test("ruleVerdict() orders deny, ask, allow and maps WebFetch domains and MCP tools", () => {
  const r = rules({
    allow: ["WebFetch(domain:*.example.com)", "mcp__github"],
    ask: ["WebFetch(domain:docs.example.com)"],
    deny: ["mcp__github__delete_repo"],
  });
  const fetch = (url: string) => verdict(r, "web.fetch", { url });
  assert.equal(fetch("https://docs.example.com/a"), "ask WebFetch(domain:docs.example.com)");
  assert.equal(fetch("https://api.example.com/a"), "allow WebFetch(domain:*.example.com)");
  assert.equal(fetch("https://example.com/a"), undefined, "*. is subdomains only");
  assert.equal(verdict(r, "source:github/delete_repo", {}), "deny mcp__github__delete_repo");
  assert.equal(verdict(r, "source:github/list_issues", {}), "allow mcp__github");
  assert.equal(verdict(r, "source:gitlab/list_issues", {}), undefined);
});

Deno.test("parseRule() names the file, the key and the fix of a bad rule", () => {
  const where = {
    list: "deny" as const,
    source: "/p/.claude/settings.json",
    scope: "project" as const,
    root: "/p",
    key: "permissions.deny",
  };
  assert.throws(
    () => parseRule("Bash(rm", where),
    /"Bash\(rm" in \/p\/\.claude\/settings\.json \(permissions\.deny\): it is not Tool/,
  );
  assert.throws(() => parseRule("Shell(ls)", where), /"Shell" is not a tool name/);
  assert.throws(() => parseRule("WebFetch(example.com)", where), /names a domain/);
  assert.deepEqual(
    [parseRule("Bash(*)", where).specifier, parseRule("Bash", where).tool],
    [undefined, "Bash"],
  );
});
