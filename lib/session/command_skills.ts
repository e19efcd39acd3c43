/**
 * Custom commands a model may invoke, offered as skills the way Claude Code offers its
 * skills-style commands (its `Skill` tool, and the skills listing of harnesses that show one):
 * Claude Code's and our Markdown commands with front matter and a `description`, without
 * `disable-model-invocation` and without shell pre-execution (that runs only when a person
 * invokes the command). A SKILL.md of the same name keeps its place.
 */
import { dirname } from "node:path";
import type { EffectiveConfig } from "../config/mod.ts";
import type { SkillInfo } from "../tools/skills.ts";

/** The model-invocable custom commands of the session with config `config`, as skills. */
export async function commandSkills(
  config: EffectiveConfig,
  opts: { env: Record<string, string>; isHeldBack?: (path: string) => boolean },
): Promise<SkillInfo[]> {
  const [{ setupContext }, { discoverCommands }, { shellCommands }] = await Promise.all([
    import("../setups/sources.ts"),
    import("../setups/commands/discover.ts"),
    import("../setups/commands/segments.ts"),
  ]);
  const { commands } = await discoverCommands(setupContext(config, opts));
  return commands.filter((c) =>
    c.modelInvocable && c.bodyLine > 1 && (c.vendor === "claude" || c.vendor === "ours") &&
    shellCommands(c.body, c.syntax).length === 0
  ).map((c) => ({
    name: c.name,
    description: c.description!,
    path: c.source,
    dir: dirname(c.source),
    scope: c.scope === "project" ? "repo" : "user",
  }));
}
