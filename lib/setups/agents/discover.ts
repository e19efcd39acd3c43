/**
 * Finds the sub-agents defined in our own and other agents' folders (`locationsOf("agents")`):
 * the user's first, then the project's from the working directory up to its root (only when it
 * is trusted), each file read bounded and inside the project (`readSetupFile()`). A file that
 * does not load is a warning naming it; names clash as everywhere in lib/setups (built-in agent
 * types, then the user's, then the project's).
 */
import { relative, sep } from "node:path";
import { definitionFiles, locationsOf } from "../locations.ts";
import { readSetupFile, resolveClashes, type SetupContext, setupWarning } from "../sources.ts";
import { type AgentFile, parseAgentFile } from "./parse.ts";
import { type AgentDefinition, BUILTIN_AGENT_TYPES, type FoundAgents } from "./types.ts";

/** Most files read from one agents folder. */
const MAX_FILES = 200;

/** The sub-agents of a session in `ctx`, clashes resolved, with the warnings to show once. */
export async function discoverAgents(ctx: SetupContext): Promise<FoundAgents> {
  const warnings: string[] = [];
  const files: AgentFile[] = [];
  for (const location of locationsOf("agents", ctx)) {
    const found = await definitionFiles(location, MAX_FILES);
    for (const path of found) {
      const relName = relative(location.absolute, path).replace(/\.[^.]+$/, "").split(sep)
        .join("/");
      if (location.vendor === "gemini" && relName.startsWith("_")) continue;
      files.push({ path, vendor: location.vendor, scope: location.scope, relName });
    }
  }
  const read = await Promise.all(files.map(async (file) => {
    try {
      const text = await readSetupFile(file.path, ctx, file.scope);
      return text === undefined ? undefined : await parseAgentFile(text, file);
    } catch (error) {
      warnings.push(setupWarning(error));
      return undefined;
    }
  }));
  const builtins = BUILTIN_AGENT_TYPES.map((name): AgentDefinition => ({
    name,
    scope: "builtin",
    source: "a built-in agent type",
    vendor: "ours",
    description: "",
    prompt: "",
  }));
  const defined = read.filter((d): d is AgentDefinition => d !== undefined);
  const { kept, warnings: clashes } = resolveClashes([...builtins, ...defined], "sub-agent");
  return { agents: kept.filter((d) => d.scope !== "builtin"), warnings: [...warnings, ...clashes] };
}
