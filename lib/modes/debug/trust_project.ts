// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
/**
 * `interpreter trust [--yes]`: trusts the project at the working directory (sessions there read
 * its `.openinterpreter/` files, as `trust_level = "trusted"` in config.toml does) and every
 * runnable definition it brings that is not trusted yet (hooks, MCP servers; other agents'
 * commands with shell pre-execution, allowed-tools, allow rules, env, status lines), after listing them
 * and a yes; `--yes` for scripts. Without a terminal and without `--yes` nothing is trusted.
 * Grants go to `<home>/trust.json` (`lib/config/trust_store.ts`).
 */
import { terminalText } from "../../approval/visible.ts";
import { loadConfig } from "../../config/load.ts";
import { ConfigError, UsageError } from "../../errors.ts";
import {
  projectDefinitions,
  type RunnableDefinition,
  trustDefinitions,
} from "../../session/trust.ts";
import { definitionCount, definitionLines, saidYes, trustEffect } from "../term/trust_lines.ts";

/** What `runTrust()` needs: the directory, `--yes`, and how to ask (default: the terminal). */
export interface TrustOptions {
  cwd: string;
  yes: boolean;
  env?: Record<string, string>;
  /** Asks one question; null when no one can answer (stdin is not a terminal). */
  ask?: (question: string) => string | null;
}

/** Runs `interpreter trust`; 0 once trusted (or nothing to trust), 1 when the user said no. */
export async function runTrust(opts: TrustOptions): Promise<number> {
  const env = opts.env ?? Deno.env.toObject();
  const base = { cwd: opts.cwd, env, flags: {}, overrides: [] };
  const decided = await loadConfig(base);
  const root = decided.projectRoot;
  if (decided.trust === "untrusted") {
    throw new ConfigError(`Cannot trust "${root}": your config.toml marks it untrusted`, {
      hint: `Remove trust_level = "untrusted" from [projects."${root}"] in ` +
        `"${decided.home}/config.toml", then run "interpreter trust" again`,
    });
  }
  const config = await loadConfig({ ...base, assumeTrusted: true });
  const { all, untrusted } = await projectDefinitions(config, { env });
  const shownRoot = terminalText(root);
  if (decided.trust === "trusted" && untrusted.length === 0) {
    const count = all.length
      ? `, and so ${all.length === 1 ? "is" : "are"} ${definitionCount(all)}`
      : "";
    console.log(`Nothing to trust: the project ${shownRoot} is trusted${count}`);
    return 0;
  }
  console.log(questionLines(shownRoot, untrusted, decided.trust === "trusted").join("\n"));
  if (!opts.yes) {
    const ask = opts.ask ?? askOnTerminal;
    const answer = ask(
      untrusted.length ? "Trust the project and these? [y/N] " : "Trust it? [y/N] ",
    );
    if (answer === null) {
      throw new UsageError("Cannot ask whether to trust them: stdin is not a terminal", {
        hint: 'Review the list above, then run "interpreter trust --yes" to trust them',
      });
    }
    if (!saidYes(answer)) {
      console.log("Nothing was trusted");
      return 1;
    }
  }
  await trustDefinitions(config.home, root, untrusted, { project: true });
  const what = untrusted.length ? ` and its ${definitionCount(untrusted)}` : "";
  console.log(`Trusted the project ${shownRoot}${what}; new sessions there use them`);
  return 0;
}

/** What is about to be trusted: the project (unless it is already), then each definition. */
function questionLines(root: string, untrusted: RunnableDefinition[], trusted: boolean): string[] {
  const lines = trusted ? [] : [
    `Trusting the project ${root} lets sessions there read its .openinterpreter/config.toml ` +
    "and hooks.json (settings, instructions, hooks and MCP servers) and the setups written " +
    "for other agents (.claude/, .gemini/, .qwen/, .opencode/, .codex/, .mcp.json, opencode.json: " +
    "commands, sub-agents, MCP servers, permission rules, hooks, env, status lines).",
  ];
  if (untrusted.length === 0) {
    lines.push(
      "It defines nothing that runs: no hooks, MCP servers, commands with shell " +
        "pre-execution, allow rules, env or status-line commands.",
    );
    return lines;
  }
  lines.push(
    `The project ${root} defines ${definitionCount(untrusted)} not trusted yet; once trusted ` +
      `${trustEffect(untrusted)}:`,
    ...definitionLines(untrusted),
  );
  return lines;
}

function askOnTerminal(question: string): string | null {
  if (!Deno.stdin.isTerminal()) return null;
  return prompt(question) ?? "";
}
