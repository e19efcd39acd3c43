/**
 * The config home holds prompts, command output and project paths: every folder interpreter
 * makes there is 0700 and every file 0600, and a home an earlier version left 0755 is narrowed.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { parseScript, startFakeProvider } from "../fake_provider/server.ts";
import { fixtureRepo, interpreter } from "./_harness_env.ts";

/** One turn that runs a command which leaves a held-back skill, then a reply. */
const SCRIPT = [
  {
    reply: {
      tool_calls: [{
        name: "exec_command",
        args: { cmd: "mkdir -p .codex/skills/x && echo hi > .codex/skills/x/SKILL.md" },
      }],
    },
  },
  { expect: { last_tool_result_contains: "exited with code 0" }, reply: { text: "done" } },
].map((line) => JSON.stringify(line)).join("\n");

/** Each path under `home` with its kind and permission bits: `path d700`, `path f644`. */
async function modes(home: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (path: string) => {
    const info = await Deno.lstat(path);
    const kind = info.isDirectory ? "d" : info.isFile ? "f" : "l";
    out.push(`${relative(home, path) || "."} ${kind}${(info.mode! & 0o777).toString(8)}`);
    if (info.isDirectory) {
      for await (const entry of Deno.readDir(path)) await walk(join(path, entry.name));
    }
  };
  await walk(home);
  return out.sort();
}

/** A session in a fresh repository with the fake provider, its config given on the command line. */
async function runSession(home: string): Promise<void> {
  const repo = await Deno.realPath(await fixtureRepo("habits"));
  await using fake = await startFakeProvider(parseScript(SCRIPT));
  try {
    const provider = `{ name = "Fake", base_url = "${fake.baseUrl}", wire_api = "chat", ` +
      `env_key = "FAKE_API_KEY" }`;
    const args = ["-c", `model_providers.fake=${provider}`, "-c", "model_provider=fake"];
    const result = await interpreter(["exec", ...args, "-m", "fake-model", "go"], {
      cwd: repo,
      home,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), "done");
    assert.deepEqual(fake.failures, []);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
}

Deno.test("a fresh config home gets only 0700 folders and 0600 files", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi-modes-" });
  const home = join(dir, ".openinterpreter");
  try {
    await runSession(home);
    const found = await modes(home);
    assert.ok(found.some((line) => line.startsWith("sessions/")), found.join("\n"));
    assert.ok(found.includes("state/held_back.json f600"), found.join("\n"));
    const open = found.filter((line) => !isPrivate(line));
    assert.deepEqual(open, [], `not private:\n${open.join("\n")}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a home an earlier version made 0755 with 0644 files is narrowed, the user's skills kept", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi-modes-" });
  const home = join(dir, ".openinterpreter");
  const day = join(home, "sessions", "2025", "01", "02");
  const script = join(home, "skills", "tool", "run.sh");
  try {
    for (const folder of [day, join(home, "state", "open"), join(home, "skills", "tool")]) {
      await Deno.mkdir(folder, { recursive: true });
    }
    await Deno.writeTextFile(join(home, "config.toml"), "# mine\n");
    await Deno.writeTextFile(join(home, "history.jsonl"), "");
    await Deno.writeTextFile(join(home, "state", "held_back.json"), "{}");
    await Deno.writeTextFile(join(day, "old.jsonl"), "");
    await Deno.writeTextFile(script, "#!/bin/sh\n");
    for (const line of await modes(home)) {
      const [path, mode] = line.split(" ");
      await Deno.chmod(join(home, path), mode.startsWith("d") ? 0o755 : 0o644);
    }
    await Deno.chmod(script, 0o755);

    await runSession(home);

    const found = await modes(home);
    const skills = found.filter((line) => line.startsWith("skills"));
    assert.deepEqual(skills, ["skills d755", "skills/tool d755", "skills/tool/run.sh f755"]);
    const open = found.filter((line) => !line.startsWith("skills") && !isPrivate(line));
    assert.deepEqual(open, [], `not private:\n${open.join("\n")}`);
    assert.ok(found.includes("sessions/2025/01/02/old.jsonl f600"), found.join("\n"));
    assert.ok(found.includes("history.jsonl f600"), found.join("\n"));
    assert.ok(found.includes(". d700"), found.join("\n"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** True when a `modes()` line shows a folder 0700 or a file 0600. */
function isPrivate(line: string): boolean {
  return / (d700|f600)$/.test(line);
}
