/**
 * `/skills`: the Agent Skills the session found, each with its description and where it comes
 * from (repo, user or system, and its SKILL.md; inside the working directory relative to it).
 */
import { terminalSafe } from "../../approval/visible.ts";
import type { Session } from "../../session/open.ts";
import type { SkillListing } from "../../session/types.ts";
import type { Style } from "../term/style.ts";
import { shownPath } from "./shown_path.ts";

/** What `/skills` reaches of the REPL. */
interface SkillsContext {
  session(): Pick<Session, "skills" | "info">;
  print(lines: string[]): void;
  style: Style;
}

/** The lines `/skills` prints for `skills`, found in a session working in `cwd`. */
function skillsLines(skills: SkillListing[], cwd: string, style: Style): string[] {
  if (skills.length === 0) {
    return ["No skills found (a skill is a folder with SKILL.md under .agents/skills)"];
  }
  return terminalSafe(skills).flatMap((s) => {
    const where = shownPath(s.path, cwd);
    return [`${style.bold(s.name)}  ${s.description}`, `  ${style.dim(`${s.scope}: ${where}`)}`];
  });
}

/** The `/skills` command. */
export const SKILLS_COMMAND = {
  name: "skills",
  summary: "the skills found, with their descriptions and where each comes from",
  run: async (_: string, ctx: SkillsContext): Promise<void> => {
    const session = ctx.session();
    ctx.print(skillsLines(await session.skills(), session.info.cwd, ctx.style));
  },
};
