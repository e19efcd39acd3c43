import assert from "node:assert/strict";
import { join } from "node:path";
import { inProcessFs } from "../../sandbox/file_system.ts";
import type { SkillInfo } from "../tools/skills.ts";
import { mentionedSkills, skillMentions, skillMessages } from "./skill_mentions.ts";

const info = (name: string, dir = `/s/${name}`): SkillInfo => ({
  name,
  description: `${name} skill`,
  dir,
  path: `${dir}/SKILL.md`,
  scope: "repo",
});

Deno.test("skillMentions() reads $name and [$name](path), not env names or code", () => {
  for (
    const [text, names, paths] of [
      ["use $alpha and [$beta](/tmp/beta/SKILL.md)", ["alpha", "beta"], ["/tmp/beta/SKILL.md"]],
      ["($deploy-app). $x.y $a_b", ["deploy-app", "x", "a_b"], []],
      ["use $PATH, $home and [$HOME](/h)", [], []],
      ["[$beta] /tmp/beta and [$gamma]()", ["beta", "gamma"], []],
      ["use [$beta]  ( skill:///s/beta/SKILL.md )", ["beta"], ["/s/beta/SKILL.md"]],
      ["`$danger` ``[$d2](p)`` $safe", ["safe"], []],
      ["```sh\necho $danger\n```\n$safe\n~~~\n$d2", ["safe"], []],
      ["$$$ costs 5$", [], []],
    ] as const
  ) {
    const found = skillMentions(text);
    assert.deepEqual([...found.names], names, text);
    assert.deepEqual([...found.paths], paths, text);
  }
});

Deno.test("mentionedSkills() keeps the skills' order, each once, a linked path first", () => {
  const skills = [info("alpha"), info("beta"), info("gamma")];
  assert.deepEqual(
    mentionedSkills("$gamma then $alpha and $alpha again", skills).map((s) => s.name),
    ["alpha", "gamma"],
  );
  assert.deepEqual(
    mentionedSkills("$alpha and [$x](/s/gamma/SKILL.md)", skills).map((s) => s.name),
    ["gamma", "alpha"],
  );
  assert.deepEqual(mentionedSkills("$alphabet, $unknown", skills), []);
});

Deno.test("skillMessages() puts each mentioned SKILL.md in a <skill> user message", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_mentions_" });
  try {
    const deploy = info("deploy", join(dir, "deploy"));
    await Deno.mkdir(deploy.dir);
    const file = "---\nname: deploy\ndescription: d\n---\nRun ./ship.sh\n";
    await Deno.writeTextFile(deploy.path, file);
    const gone = info("gone", join(dir, "gone"));
    const warnings: string[] = [];
    const opts = {
      skills: () => Promise.resolve([deploy, gone]),
      fs: inProcessFs,
      warn: (m: string) => warnings.push(m),
    };
    const messages = await skillMessages(
      [{ type: "text", text: "please $deploy and $gone" }, {
        type: "text",
        text: "$ignored",
        context: true,
      }],
      opts,
    );
    assert.deepEqual(messages, [{
      role: "user",
      blocks: [{
        type: "text",
        text: `<skill>\n<name>deploy</name>\n<path>${deploy.path}</path>\n${file.trimEnd()}\n` +
          "</skill>",
      }],
    }]);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /^Cannot load the skill gone from .*gone\/SKILL\.md: /);
    assert.deepEqual(await skillMessages("no mention", opts), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
