/** Names a shell exports by itself, so finding them in a command proves no inheritance. */
const SHELL_SET = new Set(["PWD", "OLDPWD", "SHLVL", "_"]);

/**
 * A variable of this test process that `env` lacks: a command whose environment holds it (ask
 * `printenv`: shells define some names, such as `SHELL`, without exporting them) inherited the
 * process environment. Tests run in parallel, so they find such a variable instead of setting
 * one. Test helper.
 */
export function processOnlyVariable(env: Record<string, string>): string {
  const name = Object.entries(Deno.env.toObject()).find(([n, value]) =>
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(n) && !(n in env) && !SHELL_SET.has(n) && value !== ""
  )?.[0];
  if (name === undefined) {
    throw new Error("This test needs a variable in its environment that the context lacks");
  }
  return name;
}

/** Alive means present and not a zombie: a killed orphan may wait a while to be reaped. */
export async function processAlive(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
