/** A session on a machine without bubblewrap: what it says, and when it refuses to start. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type ConfigValues, defaultValues } from "../config/schema.ts";
import { UserError } from "../errors.ts";
import { bubblewrapInstallCommand } from "../../sandbox/install_hint.ts";
import { classifyProbeFailure } from "../../sandbox/probe.ts";
import { openSessionSandbox, type SessionSandboxOptions } from "./sandbox_setup.ts";

const MISSING = { OPENINTERPRETER_BWRAP: "/nonexistent/bwrap" };
const linuxOnly = Deno.build.os !== "linux";

async function withRoot<T>(run: (root: string) => Promise<T>): Promise<T> {
  const root = await Deno.makeTempDir({ prefix: "oi_nobwrap_" });
  try {
    return await run(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function open(
  root: string,
  policy: ConfigValues["approval_policy"],
  opts: Partial<SessionSandboxOptions>,
) {
  const values = { ...defaultValues(), approval_policy: policy } as ConfigValues;
  return openSessionSandbox(values, { cwd: root, home: join(root, "home"), env: MISSING, ...opts });
}

Deno.test({
  name: "without bubblewrap the warning is a sentence that names the command installing it",
  ignore: linuxOnly,
  fn: () =>
    withRoot(async (root) => {
      const ask = () => Promise.resolve("deny" as const);
      await using session = await open(root, "on-request", { ask });
      const [warning] = session.warnings;
      assert.match(
        warning,
        /^The command sandbox is unavailable because bubblewrap is not installed, so each command that is not known to be read-only asks for your approval, then runs unsandboxed\.\n/,
      );
      const install = await bubblewrapInstallCommand();
      if (install) assert.ok(warning.includes(`hint: Install it with \`${install}\``), warning);
    }),
});

Deno.test({
  name: "a session that requires the sandbox refuses to open without it when no one can approve",
  ignore: linuxOnly,
  fn: () =>
    withRoot(async (root) => {
      for (
        const [policy, ask] of [["on-request", undefined], [
          "never",
          () => Promise.resolve("once" as const),
        ]] as const
      ) {
        const error = await open(root, policy, { requireSandbox: true, ...(ask ? { ask } : {}) })
          .then(() => undefined, (e) => e);
        assert.ok(error instanceof UserError, `${policy}: ${error}`);
        assert.equal(error.exitCode, 2);
        assert.match(
          error.message,
          /^Cannot run commands: the command sandbox is unavailable because bubblewrap is not installed, and /,
        );
      }
      const ask = () => Promise.resolve("once" as const);
      await using asked = await open(root, "on-request", { requireSandbox: true, ask });
      assert.equal(asked.sandbox.status.enforced, false, "someone can approve: it opens");
    }),
});

Deno.test({
  name:
    "a change of policy is checked as the start-up values are: never is refused without a sandbox",
  ignore: linuxOnly,
  fn: () =>
    withRoot(async (root) => {
      const ask = () => Promise.resolve("once" as const);
      await using session = await open(root, "on-request", { requireSandbox: true, ask });
      // Approval never would leave no one to approve the unsandboxed commands: refused as at start.
      await assert.rejects(
        session.check({ mode: "workspace-write", policy: "never" }),
        /^UserError: Cannot run commands: the command sandbox is unavailable because bubblewrap/,
      );
      const other = await session.check({ mode: "read-only", policy: "untrusted" });
      assert.equal(other.policy, "untrusted", "someone can still approve: taken");
      await session.discard(other);
    }),
});

Deno.test("a missing bubblewrap's hint is the install command when there is one", () => {
  const hint = classifyProbeFailure("", null, "sudo apk add bubblewrap").hint;
  assert.match(
    hint,
    /^Install it with `sudo apk add bubblewrap`, or restart with --sandbox danger/,
  );
});

Deno.test("bubblewrapInstallCommand() uses the package manager on PATH, with sudo unless root", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_pm_" });
  try {
    assert.equal(await bubblewrapInstallCommand({ path: dir, root: true }), undefined);
    await Deno.writeTextFile(join(dir, "pacman"), "");
    assert.equal(
      await bubblewrapInstallCommand({ path: `/nonexistent:${dir}`, root: false }),
      "sudo pacman -S --noconfirm bubblewrap",
    );
    await Deno.writeTextFile(join(dir, "dnf"), "");
    assert.equal(
      await bubblewrapInstallCommand({ path: dir, root: true }),
      "dnf install -y bubblewrap",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
