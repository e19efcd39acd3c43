/**
 * `interpreter doctor`'s checks of this machine: the runtime and the binary's version, the
 * command sandbox (bubblewrap and the user namespaces it builds, by the same probe a session
 * runs), ripgrep, the terminal, and the config files read. Each check says whether it passed,
 * what it found, the command or setting that fixes it, and whether a session needs it (a failed
 * needed check makes doctor exit 1). Providers and MCP servers: doctor_reach.ts.
 */
import { probeBubblewrap } from "../../sandbox/probe.ts";
import type { EffectiveConfig } from "../config/mod.ts";
import { gitCommit, VERSION } from "../version.ts";

/** One line of the doctor's report. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  /** What was found, in one line; never a key's value. */
  detail: string;
  /** The command or setting that fixes a failed check. */
  fix?: string;
  /** A session cannot work without it: a failure makes doctor exit 1. */
  needed?: boolean;
}

/** The runtime and the binary. */
export async function versionCheck(): Promise<DoctorCheck> {
  const commit = await gitCommit();
  return {
    name: "version",
    ok: true,
    detail: `interpreter ${VERSION} (commit ${commit}), Deno ${Deno.version.deno} on ` +
      `${Deno.build.os}-${Deno.build.arch}`,
  };
}

/**
 * Bubblewrap and user namespaces, by the probe every session runs (`OPENINTERPRETER_BWRAP`
 * names another bwrap, as for sessions). Only Linux sandboxes commands with them.
 */
export async function sandboxChecks(env: Record<string, string>): Promise<DoctorCheck[]> {
  if (Deno.build.os !== "linux") {
    return [{
      name: "sandbox",
      ok: true,
      detail: `bubblewrap is used on Linux only; this is ${Deno.build.os}`,
    }];
  }
  const probe = await probeBubblewrap(
    env.OPENINTERPRETER_BWRAP ? { bwrap: env.OPENINTERPRETER_BWRAP } : {},
  );
  if (probe.ok) {
    return [
      { name: "bubblewrap", ok: true, detail: `${probe.bwrap}: ${probe.version}` },
      { name: "sandbox", ok: true, detail: "user namespaces work: commands run sandboxed" },
    ];
  }
  const missing = probe.failure.kind === "missing";
  const fix = probe.failure.hint;
  return [
    {
      name: "bubblewrap",
      ok: !missing,
      detail: missing ? `${probe.bwrap} is not installed` : `${probe.bwrap} is installed`,
      ...(missing ? { fix, needed: true } : {}),
    },
    {
      name: "sandbox",
      ok: false,
      detail: `commands cannot run sandboxed: ${probe.failure.message}`,
      fix,
      needed: true,
    },
  ];
}

/** ripgrep, which the search tools run when it is there. */
export async function ripgrepCheck(): Promise<DoctorCheck> {
  const out = await new Deno.Command("rg", { args: ["--version"], stdout: "piped", stderr: "null" })
    .output().catch(() => undefined);
  if (out?.success) {
    const line = new TextDecoder().decode(out.stdout).split("\n")[0];
    return { name: "ripgrep", ok: true, detail: line };
  }
  const fix = Deno.build.os === "darwin"
    ? "brew install ripgrep"
    : "sudo apt-get install -y ripgrep (or your package manager's ripgrep)";
  return { name: "ripgrep", ok: false, detail: "rg is not on PATH: searches are slower", fix };
}

/** What the terminal offers: TERM, colour, and which streams are terminals. */
export function terminalCheck(env: Record<string, string>): DoctorCheck {
  const term = env.TERM ?? "(unset)";
  const colour = env.NO_COLOR !== undefined
    ? "off (NO_COLOR)"
    : env.COLORTERM
    ? `on (COLORTERM=${env.COLORTERM})`
    : term === "dumb"
    ? "off (TERM=dumb)"
    : "on";
  const ttys = (["stdin", "stdout", "stderr"] as const)
    .map((name) => `${name} ${Deno[name].isTerminal() ? "is" : "is not"} a terminal`);
  return {
    name: "terminal",
    ok: true,
    detail: `TERM=${term}; colour ${colour}; ${ttys.join(", ")}`,
  };
}

/** The config files read, each with its place, and what in them was not understood. */
export function configChecks(config: EffectiveConfig): DoctorCheck[] {
  const files = config.files.length ? config.files.join(", ") : "none (defaults only)";
  const trust = config.trust === "trusted"
    ? "project trusted"
    : `project ${config.projectRoot} not trusted: its .openinterpreter/config.toml is not read`;
  const checks: DoctorCheck[] = [
    { name: "config", ok: true, detail: `home ${config.home}; files read: ${files}; ${trust}` },
  ];
  if (config.warnings.length) {
    checks.push({
      name: "config warnings",
      ok: false,
      detail: config.warnings.join("; "),
      fix: "Correct or remove the keys named (interpreter debug config shows every value)",
    });
  }
  return checks;
}
