import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { TARGETS } from "../../scripts/compile.ts";

const INSTALL_SH = fileURLToPath(new URL("../../install.sh", import.meta.url));
const BINARY = '#!/bin/sh\necho "interpreter 9.9.9"\n';
/** What install.sh runs besides the package manager: each linked into the test's PATH. */
const TOOLS = [
  "awk",
  "chmod",
  "cp",
  "curl",
  "env",
  "id",
  "ln",
  "mkdir",
  "mktemp",
  "mv",
  "readlink",
  "rm",
  "sha256sum",
  "uname",
];

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A PATH with the tools install.sh needs and a stub apt-get that logs, but no bwrap. */
async function pathWithoutBwrap(dir: string, log: string): Promise<string> {
  await Deno.mkdir(dir);
  for (const tool of TOOLS) {
    const found = await new Deno.Command("/bin/sh", { args: ["-c", `command -v ${tool}`] })
      .output();
    await Deno.symlink(new TextDecoder().decode(found.stdout).trim(), `${dir}/${tool}`);
  }
  await Deno.writeTextFile(
    `${dir}/apt-get`,
    `#!/bin/sh\necho "apt-get $* (DEBIAN_FRONTEND=$DEBIAN_FRONTEND)" >> "${log}"\n`,
  );
  await Deno.chmod(`${dir}/apt-get`, 0o755);
  return dir;
}

Deno.test({
  name: "install.sh on Linux installs a missing bubblewrap as root, else prints the command",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const sums = (await Promise.all(TARGETS.map(async (t) =>
      `${await sha256(BINARY)}  ${t.asset}`
    )))
      .join("\n") + "\n";
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
      const name = new URL(req.url).pathname.slice(1);
      return new Response(name === "SHA256SUMS" ? sums : BINARY);
    });
    const home = await Deno.makeTempDir({ prefix: "install_sh_bwrap_" });
    try {
      const log = `${home}/apt.log`;
      const out = await new Deno.Command("/bin/sh", {
        args: [INSTALL_SH],
        env: {
          PATH: await pathWithoutBwrap(`${home}/bin`, log),
          HOME: home,
          NO_PROXY: "127.0.0.1",
          INTERPRETER_INSTALL_BASE_URL: `http://127.0.0.1:${server.addr.port}`,
        },
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(out.stdout);
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      const calls = await Deno.readTextFile(log).catch(() => "");
      if (Deno.uid() === 0) {
        assert.match(
          stdout,
          /^Installing bubblewrap \(the command sandbox\): apt-get install -y bubblewrap$/m,
        );
        assert.equal(
          calls,
          "apt-get update -qq (DEBIAN_FRONTEND=noninteractive)\n" +
            "apt-get install -y bubblewrap (DEBIAN_FRONTEND=noninteractive)\n",
        );
      } else {
        assert.match(stdout, /^ {2}sudo apt-get install -y bubblewrap$/m);
        assert.equal(calls, "", "nothing is installed without root");
      }
    } finally {
      await server.shutdown();
      await Deno.remove(home, { recursive: true });
    }
  },
});
