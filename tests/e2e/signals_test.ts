import assert from "node:assert/strict";
import { join } from "node:path";
import { parseScript, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, LAUNCHER } from "./_harness_env.ts";
import { until } from "./_poll.ts";

/** True while `pid` is a live process (a zombie counts as gone). */
async function alive(pid: number): Promise<boolean> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
  return stat !== "" && !/^\d+ \(.*\) Z/.test(stat);
}

/** Live processes of process group `pgid`. */
async function liveMembers(pgid: number): Promise<number[]> {
  const out = await new Deno.Command("pgrep", { args: ["-g", String(pgid)] }).output();
  const pids = new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map(Number);
  const live = await Promise.all(pids.map(alive));
  return pids.filter((_, i) => live[i]);
}

for (const [signal, code] of [["SIGTERM", 143], ["SIGHUP", 129]] as const) {
  Deno.test({
    name: `${signal} during a full-access command kills its process group and exits ${code}`,
    ignore: Deno.build.os !== "linux",
    async fn() {
      const repo = await fixtureRepo("habits");
      const pidFile = join(repo, "group.pid");
      await using fake = await startFakeProvider(parseScript(JSON.stringify({
        reply: {
          tool_calls: [{
            name: "exec_command",
            args: { cmd: "echo $$ > group.pid; sleep 300 & sleep 300; wait" },
          }],
        },
      })));
      const home = await fakeHome(fake.baseUrl, "chat");
      try {
        const child = new Deno.Command(LAUNCHER, {
          args: ["exec", "--yolo", "wait"],
          cwd: repo,
          env: { OPENINTERPRETER_HOME: home, FAKE_API_KEY: "k", NO_COLOR: "1" },
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        await until(
          "the command",
          () => Deno.readTextFile(pidFile).then((t) => t.trim() !== "", () => false),
        );
        const leader = Number((await Deno.readTextFile(pidFile)).trim());
        await until("both sleeps to start", async () => (await liveMembers(leader)).length === 3);
        child.kill(signal);
        const out = await child.output();
        const stderr = new TextDecoder().decode(out.stderr);
        assert.equal(out.code, code, stderr);
        assert.match(stderr, new RegExp(`^error: Stopped by ${signal}$`, "m"));
        assert.equal(new TextDecoder().decode(out.stdout), "");
        await until(
          "the process group to end",
          async () => (await liveMembers(leader)).length === 0,
        );
      } finally {
        await Deno.remove(repo, { recursive: true });
        await Deno.remove(home, { recursive: true });
      }
    },
  });
}
