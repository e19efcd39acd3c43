import assert from "node:assert/strict";
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { checkEnvironment, requireBubblewrap, withHarborMounts } from "./check_sandbox.ts";

const LAUNCHER = ["-c", "exec bwrap", "sh", "/f", "", "bwrap"];
const BWRAP = ["--new-session", "--ro-bind", "/", "/", "--dev", "/dev", "--tmpfs", "/tmp"];
const TAIL = ["--unshare-net", "--chdir", "/w", "--", "sh", "-c", "true"];

Deno.test("withHarborMounts() swaps the read-only / for a read-only root that has /logs/verifier and /tests", () => {
  const entries = [
    { name: "usr" },
    { name: "bin", link: "usr/bin" },
    { name: "proc" },
    { name: "dev" },
    { name: "logs" },
    { name: "tests" },
    { name: "etc" },
  ];
  const args = withHarborMounts([...LAUNCHER, ...BWRAP, ...TAIL], {
    verifierDir: "/job/t/verifier",
    testsDir: "/tasks/t/tests",
  }, entries);
  assert.deepEqual(args, [
    ...LAUNCHER,
    "--new-session",
    ...["--tmpfs", "/"],
    ...["--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--ro-bind", "/etc", "/etc"],
    ...["--bind", "/job/t/verifier", "/logs/verifier", "--ro-bind", "/tasks/t/tests", "/tests"],
    ...["--dev", "/dev", "--tmpfs", "/tmp", "--unshare-net", "--chdir", "/w"],
    ...["--remount-ro", "/", "--", "sh", "-c", "true"],
  ]);
});

Deno.test("withHarborMounts() refuses arguments it does not recognise rather than run the test unconfined", () => {
  assert.throws(
    () =>
      withHarborMounts(
        ["--bind", "/", "/", "--", "true"],
        { verifierDir: "/v", testsDir: "/t" },
        [],
      ),
    /no read-only bind of \//,
  );
});

Deno.test("requireBubblewrap() refuses, naming the cause, where bubblewrap cannot run", async () => {
  const env = { PATH: "/usr/bin:/bin", OPENINTERPRETER_BWRAP: "/nonexistent/bwrap" };
  await assert.rejects(requireBubblewrap(env), (error) => {
    assert.ok(error instanceof UserError, String(error));
    assert.match(
      error.message,
      /^Cannot run eval: the setup and check commands of its tasks run only in bubblewrap, and /,
    );
    assert.doesNotMatch(error.hint ?? "", /danger-full-access|approve/);
    return true;
  });
});

Deno.test("checkEnvironment() leaves out keys, secrets and tokens as for the agent's commands, and follows -c", async () => {
  const home = await Deno.makeTempDir({ prefix: "eval_check_env_" });
  try {
    const env = {
      OPENINTERPRETER_HOME: home,
      PATH: "/usr/bin:/bin",
      MOCK_API_KEY: "sk-secret",
      GITHUB_TOKEN: "t",
      AWS_SECRET_ACCESS_KEY: "s",
      LANG: "C.UTF-8",
    };
    const plain = await checkEnvironment(home, { env, execFlags: ["--ask-for-approval", "never"] });
    assert.deepEqual(Object.keys(plain).sort(), ["LANG", "OPENINTERPRETER_HOME", "PATH"]);
    await Deno.writeTextFile(
      join(home, "config.toml"),
      '[shell_environment_policy]\nset = { FROM_CONFIG = "1" }\n',
    );
    const configured = await checkEnvironment(home, {
      env,
      execFlags: ["-c", 'shell_environment_policy.include_only=["PATH", "FROM_CONFIG"]'],
    });
    assert.deepEqual(configured, { PATH: "/usr/bin:/bin", FROM_CONFIG: "1" });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
