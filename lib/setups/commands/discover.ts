/**
 * Finds the custom slash commands of the session (issue 33 §1): every commands folder of
 * `locationsOf("commands")` (the user's, then the project's from the working directory up, when
 * the project is trusted), ours before other vendors' within one scope. A name a front end
 * already has as a built-in command is skipped with a warning; then the user's commands come
 * before the project's (`resolveClashes()`), one warning per clash naming both files. A bad file
 * is a warning, never a failure of the others.
 */
import { relative, sep } from "node:path";
import { definitionFiles, locationsOf } from "../locations.ts";
import { readSetupFile, resolveClashes, type SetupContext, setupWarning } from "../sources.ts";
import { parseCommandFile } from "./command_file.ts";
import type { CustomCommand } from "./types.ts";

/** Most files one commands folder is walked for. */
const MAX_FILES = 2000;

/** The commands found and what went wrong on the way. */
export interface CommandCatalog {
  commands: CustomCommand[];
  warnings: string[];
}

/** Every command of every location, clashes resolved (the user's before the project's). */
export async function discoverCommands(ctx: SetupContext): Promise<CommandCatalog> {
  const warnings: string[] = [];
  const found: CustomCommand[] = [];
  for (const location of locationsOf("commands", ctx)) {
    for (const path of await definitionFiles(location, MAX_FILES)) {
      const scope = location.scope;
      try {
        const text = await readSetupFile(path, ctx, scope);
        if (text === undefined) continue;
        const rel = relative(location.absolute, path).split(sep).join("/");
        found.push(parseCommandFile(text, { path, relative: rel, vendor: location.vendor, scope }));
      } catch (error) {
        warnings.push(setupWarning(error));
      }
    }
  }
  const { kept, warnings: clashes } = resolveClashes(found, "command");
  return { commands: kept, warnings: [...warnings, ...clashes] };
}

/**
 * `catalog` without the commands whose name a front end has built in (`builtins`, without the
 * slash), with one warning for each one left out.
 */
export function withoutBuiltins(
  catalog: CommandCatalog,
  builtins: readonly string[],
): CommandCatalog {
  const taken = new Set(builtins.map((b) => b.toLowerCase()));
  const warnings = [...catalog.warnings];
  const commands = catalog.commands.filter((c) => {
    if (!taken.has(c.name.toLowerCase())) return true;
    warnings.push(
      `The command "/${c.name}" of ${c.source} is not used: /${c.name} is a built-in command. ` +
        "Rename the file to use it.",
    );
    return false;
  });
  return { commands, warnings };
}

/** The command `name` (without the slash, exactly as written) answers to, by name or alias. */
export function findCommand(
  commands: readonly CustomCommand[],
  name: string,
): CustomCommand | undefined {
  return commands.find((c) => c.name === name) ?? commands.find((c) => c.aliases.includes(name));
}
