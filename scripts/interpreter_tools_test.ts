import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/**
 * A copy of the launcher whose main.ts prints "ran", and a PATH holding deno, sed, env and a stub
 * `apt-get` that logs its arguments: ripgrep is missing there (bubblewrap too, unless
 * /usr/bin/bwrap exists, which interpreter uses).
 */
async function checkout() {
  const root = await Deno.makeTempDir({ prefix: "interpreter_tools_" });
  await Deno.mkdir(`${root}/scripts`);
  await Deno.mkdir(`${root}/sandbox`);
  await Deno.mkdir(`${root}/bin`);
  for (const file of ["scripts/interpreter", "scripts/_deno.sh", "sandbox/deno_flags.json"]) {
    await Deno.copyFile(`${REPO}/${file}`, `${root}/${file}`);
  }
  await Deno.writeTextFile(`${root}/deno.json`, "{}\n");
  await Deno.writeTextFile(`${root}/main.ts`, 'console.log("ran");\n');
  await Deno.symlink(Deno.execPath(), `${root}/bin/deno`);
  await Deno.symlink("/usr/bin/sed", `${root}/bin/sed`);
  await Deno.symlink("/usr/bin/env", `${root}/bin/env`);
  await Deno.writeTextFile(
    `${root}/bin/apt-get`,
    `#!/bin/sh\necho "apt-get $* (DEBIAN_FRONTEND=$DEBIAN_FRONTEND)" >> "${root}/apt.log"\n`,
  );
  await Deno.chmod(`${root}/bin/apt-get`, 0o755);
  return { root, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }) };
}

Deno.test({
  name:
    "scripts/interpreter installs missing bubblewrap and ripgrep as root, else names the command",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using dir = await checkout();
    const out = await new Deno.Command("/bin/bash", {
      args: [`${dir.root}/scripts/interpreter`, "x"],
      env: { PATH: `${dir.root}/bin` },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    assert.equal(new TextDecoder().decode(out.stdout), "ran\n");
    const wanted = (await Deno.stat("/usr/bin/bwrap").then(() => true, () => false))
      ? "ripgrep"
      : "bubblewrap ripgrep";
    const log = await Deno.readTextFile(`${dir.root}/apt.log`).catch(() => "");
    if (Deno.uid() === 0) {
      assert.equal(
        log,
        "apt-get update -qq (DEBIAN_FRONTEND=noninteractive)\n" +
          `apt-get install -y -qq --no-install-recommends ${wanted} ` +
          "(DEBIAN_FRONTEND=noninteractive)\n",
      );
      assert.equal(stderr, `note: installing ${wanted} with apt-get\n`);
    } else {
      assert.equal(log, "", "without root or sudo nothing is installed");
      assert.equal(
        stderr,
        `note: not installed: ${wanted}; install with: sudo apt-get install -y ${wanted}\n`,
      );
    }
  },
});
