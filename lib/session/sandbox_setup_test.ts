/**
 * The session sandbox as a mode opens it, under real bubblewrap: the banner names exactly what is
 * protected, and neither commands nor file tools can create a protected name that is missing;
 * nothing of the protection is left in the workspace once the session is disposed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type ConfigValues, defaultValues } from "../config/schema.ts";
import { FsRefusedError } from "../../sandbox/file_system.ts";
import { hostSeccompArch } from "../../sandbox/seccomp_bpf.ts";
import { openSessionSandbox } from "./sandbox_setup.ts";
import { need } from "../../sandbox/_test_requires.ts";

const BWRAP = await need("bwrap");
const skip = BWRAP.note ||
  (hostSeccompArch() ? "" : " (SKIPPED: needs x86_64 or aarch64 Linux)");

Deno.test({
  name: "openSessionSandbox() says what stays read-only and keeps missing names uncreatable" + skip,
  ignore: skip !== "",
  async fn() {
    const parent = Deno.env.get("HOME") ?? "/var/tmp";
    const root = await Deno.realPath(await Deno.makeTempDir({ dir: parent, prefix: "oi_ss_" }));
    const ws = join(root, "ws");
    const home = join(root, "home");
    await Deno.mkdir(ws);
    await Deno.mkdir(home);
    try {
      const values = defaultValues() as ConfigValues;
      const session = await openSessionSandbox(values, { cwd: ws, home, env: {} });
      try {
        assert.equal(
          session.banner,
          `sandbox: workspace-write: writes only to ${ws}; in each, .git, .agents and ` +
            ".openinterpreter are read-only and cannot be created, and other agents' setup files " +
            "(.claude, .gemini and 7 more) are read-only; private /tmp; network off " +
            "(bubblewrap, seccomp: no Unix sockets but stream pairs, no io_uring)\n" +
            "approval: on-request",
        );
        const spec = await session.sandbox.wrap({
          argv: ["/bin/sh", "-c", "mkdir -p .agents/skills/x || echo refused"],
          cwd: ws,
          env: { PATH: "/usr/bin:/bin" },
        });
        const out = await new Deno.Command(spec.cmd, { args: spec.args, env: spec.env }).output();
        assert.match(new TextDecoder().decode(out.stdout), /refused/);
        const config = join(ws, ".openinterpreter", "config.toml");
        await assert.rejects(session.fs.mkdirp(join(ws, ".openinterpreter")), FsRefusedError);
        await assert.rejects(
          session.fs.writeFileAtomic(config, new TextEncoder().encode("x")),
          FsRefusedError,
        );
      } finally {
        await session[Symbol.asyncDispose]();
      }
      assert.deepEqual(await Array.fromAsync(Deno.readDir(ws)), []);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("openSessionSandbox() names what chose full access in its warning", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_ss_" }));
  try {
    const warningOf = async (approval: ConfigValues["approval_policy"], label?: string) => {
      const values = {
        ...defaultValues(),
        sandbox_mode: "danger-full-access",
        approval_policy: approval,
      } as ConfigValues;
      await using session = await openSessionSandbox(values, {
        cwd: root,
        home: join(root, "home"),
        env: {},
        ...(label ? { fullAccessLabel: label } : {}),
      });
      return session.warnings;
    };
    assert.deepEqual(await warningOf("never", "--yolo"), [
      "--yolo: commands run without a sandbox and without asking for approval",
    ]);
    assert.deepEqual(await warningOf("on-request", "full access"), [
      "full access: commands run without a sandbox",
    ]);
    assert.deepEqual(await warningOf("never"), [
      "sandbox_mode is danger-full-access: commands run without a sandbox",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
