import assert from "node:assert/strict";
import type { Session, SkillListing } from "../../session/types.ts";
import { makeStyle } from "../term/style.ts";
import { SKILLS_COMMAND } from "./skills_command.ts";

/** What `/skills` prints for a session in `/w` offering `skills`. */
async function printed(skills: SkillListing[]): Promise<string[]> {
  const lines: string[] = [];
  const session = { skills: () => Promise.resolve(skills), info: { cwd: "/w" } } as Session;
  await SKILLS_COMMAND.run("", {
    session: () => session,
    print: (more) => lines.push(...more),
    style: makeStyle(false),
  });
  return lines;
}

Deno.test("/skills lists each skill with its description and source", async () => {
  assert.deepEqual(
    await printed([
      {
        name: "deploy",
        description: "Ship \x1b[2J it",
        path: "/w/.agents/skills/deploy/SKILL.md",
        scope: "repo",
      },
      {
        name: "notes",
        description: "Keep notes",
        path: "/h/.agents/skills/notes/SKILL.md",
        scope: "user",
      },
    ]),
    [
      "deploy  Ship \\u{1b}[2J it",
      "  repo: .agents/skills/deploy/SKILL.md",
      "notes  Keep notes",
      "  user: /h/.agents/skills/notes/SKILL.md",
    ],
  );
  assert.deepEqual(await printed([]), [
    "No skills found (a skill is a folder with SKILL.md under .agents/skills)",
  ]);
});
