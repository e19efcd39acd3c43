import assert from "node:assert/strict";
import { join } from "node:path";
import type { SetupContext } from "../sources.ts";
import { allowRuleDefinitions } from "./definitions.ts";
import { allowRuleKey, loadRules } from "./load.ts";

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
}

/** A project with Claude Code's two settings files, our home, and a user home with its own. */
async function layout() {
  const root = await Deno.realPath(await Deno.makeTempDir());
  const project = join(root, "repo");
  const home = join(root, "oi");
  const userHome = join(root, "u");
  await write(
    join(project, ".claude", "settings.json"),
    JSON.stringify({ permissions: { deny: ["Bash(rm:*)", "Bash(rm"], allow: ["Bash(make:*)"] } }),
  );
  await write(
    join(project, ".claude", "settings.local.json"),
    '{ "permissions": { "ask": ["WebFetch"], }, // local\n}',
  );
  await write(join(home, "config.toml"), '[permission_rules]\ndeny = ["Read(.env)"]\n');
  await write(
    join(userHome, ".claude", "settings.json"),
    JSON.stringify({ permissions: { allow: ["Bash(ls *)"] } }),
  );
  const ctx = (trusted: boolean, importUser: string[] = []): SetupContext => ({
    cwd: project,
    projectRoot: project,
    home,
    userHome,
    projectTrusted: trusted,
    importUser: new Set(importUser) as SetupContext["importUser"],
  });
  const config = {
    home,
    projectRoot: project,
    origin: () => undefined,
    values: {} as never,
  };
  return { root, project, ctx, config };
}

Deno.test("loadRules() reads deny and ask at once and a project's allow rules once trusted", async () => {
  const { root, project, ctx, config } = await layout();
  try {
    const before = await loadRules(config, ctx(false), new Set());
    assert.deepEqual(
      before.rules.map((r) => `${r.list} ${r.text}`),
      ["deny Read(.env)", "deny Bash(rm:*)", "ask WebFetch"],
    );
    assert.deepEqual(before.untrusted.map((r) => r.text), ["Bash(make:*)"]);
    assert.match(
      before.warnings.join("\n"),
      /Skipped the deny rule "Bash\(rm" in .*\.claude\/settings\.json \(permissions\.deny\)/,
    );
    const key = await allowRuleKey({ text: "Bash(make:*)" });
    const after = await loadRules(config, ctx(true, ["permissions"]), new Set([key]));
    assert.deepEqual(
      after.rules.filter((r) => r.list === "allow").map((r) => [r.text, r.scope]),
      [["Bash(ls *)", "user"], ["Bash(make:*)", "project"]],
    );
    const defs = await allowRuleDefinitions(ctx(true));
    assert.deepEqual(defs.map((d) => [d.kind, d.name, d.key]), [[
      "allow_rule",
      "Bash(make:*)",
      key,
    ]]);
    assert.equal(defs[0].source, join(project, ".claude", "settings.json"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("loadRules() keeps a held-back file's deny rules and drops its allow rules", async () => {
  const { root, ctx, config } = await layout();
  try {
    const held = { ...ctx(true), isHeldBack: (path: string) => path.endsWith("settings.json") };
    const key = await allowRuleKey({ text: "Bash(make:*)" });
    const found = await loadRules(config, held, new Set([key]));
    assert.ok(found.rules.some((r) => r.text === "Bash(rm:*)"));
    assert.ok(!found.rules.some((r) => r.text === "Bash(make:*)"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
