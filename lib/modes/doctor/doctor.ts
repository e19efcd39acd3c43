// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
/**
 * `interpreter doctor [--json]`: what sessions need, checked (lib/session/doctor_checks.ts and
 * doctor_reach.ts) and reported one line each with the fix of what failed; `--json` prints one
 * object `{ ok, checks: [{ name, ok, detail, fix }] }`. Exit 1 when a check a session needs
 * failed (the sandbox, the key of the provider in use).
 */
import { terminalText } from "../../approval/visible.ts";
import { UserError } from "../../errors.ts";
import {
  configChecks,
  type DoctorCheck,
  ripgrepCheck,
  sandboxChecks,
  terminalCheck,
  versionCheck,
} from "../../session/doctor_checks.ts";
import { mcpChecks, providerChecks } from "../../session/doctor_reach.ts";
import { loadSessionConfig } from "../../session/setup.ts";
import { resolveWorkdir } from "../../session/workdir.ts";
import type { DoctorArgs } from "./doctor_args.ts";

/** Every check, in the order the report shows them. */
async function allChecks(args: DoctorArgs, env: Record<string, string>): Promise<DoctorCheck[]> {
  const cwd = await resolveWorkdir(args.cd);
  const checks = [await versionCheck(), ...await sandboxChecks(env), await ripgrepCheck()];
  checks.push(terminalCheck(env));
  const config = await loadSessionConfig({ cwd }, { env }).catch((error: Error) => error);
  if (config instanceof Error) {
    // A config error without a hint has none to show (not the text "undefined").
    const hint = config instanceof UserError ? config.hint : undefined;
    checks.push({ name: "config", ok: false, detail: config.message, fix: hint, needed: true });
    return checks;
  }
  checks.push(...configChecks(config));
  checks.push(...await providerChecks(config, env), ...await mcpChecks(config, env));
  return checks;
}

/** Runs the checks and reports them; 1 when something a session needs failed. */
export async function runDoctor(args: DoctorArgs): Promise<number> {
  const env = Deno.env.toObject();
  const checks = await allChecks(args, env);
  const blocking = checks.filter((c) => !c.ok && c.needed);
  if (args.json) {
    const list = checks.map((c) => ({ ...c, fix: c.fix ?? null, needed: c.needed === true }));
    console.log(JSON.stringify({ ok: blocking.length === 0, checks: list }, null, 2));
    return blocking.length ? 1 : 0;
  }
  for (const check of checks) {
    console.log(terminalText(`${check.ok ? "ok  " : "FAIL"} ${check.name}: ${check.detail}`));
    if (!check.ok && check.fix) console.log(terminalText(`     fix: ${check.fix}`));
  }
  console.log(
    blocking.length
      ? `\n${blocking.length} problem(s) a session cannot start without: ` +
        blocking.map((c) => c.name).join(", ")
      : "\nEverything a session needs is here",
  );
  return blocking.length ? 1 : 0;
}
