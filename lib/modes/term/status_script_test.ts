import assert from "node:assert/strict";
import { join } from "node:path";
import { StatusScript, statusText } from "./status_script.ts";

const FACTS = {
  cwd: "/w",
  sessionId: "s1",
  sessionFile: "/h/s1.jsonl",
  model: "m1",
  harness: "native",
  contextUsed: 250,
  contextWindow: 1000,
  tokens: { input: 300, output: 20, cached: 0 },
  cost: 0.5,
};

Deno.test("statusText() keeps colours and hyperlinks and drops what moves the cursor", () => {
  const link = "\x1b]8;;https://x.example\x07x\x1b]8;;\x07";
  assert.equal(
    statusText(`\x1b[2J\x1b[H\x1b[31mred\x1b[0m ${link}\x1b[5A\rend\x07\x9b2J\tz`),
    `\x1b[31mred\x1b[0m ${link}end2J z`,
  );
});

Deno.test("a status-line script gets Claude Code's JSON and COLUMNS; its first line is shown", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const script = join(dir, "s.sh");
    await Deno.writeTextFile(
      script,
      `cat > '${
        join(dir, "in.json")
      }'; echo; echo "line \${COLUMNS} $CLAUDE_PROJECT_DIR"; echo second\n`,
    );
    const warnings: string[] = [];
    const status = new StatusScript(
      { command: `sh '${script}'`, padding: 1, source: "settings.json", projectDir: "/proj" },
      {
        cwd: dir,
        env: { PATH: Deno.env.get("PATH") ?? "" },
        warn: (w) => warnings.push(w),
        columns: () => 99,
      },
    );
    assert.equal(await status.refresh(FACTS), " line 99 /proj");
    const input = JSON.parse(await Deno.readTextFile(join(dir, "in.json")));
    assert.equal(input.session_id, "s1");
    assert.equal(input.transcript_path, "/h/s1.jsonl");
    assert.deepEqual(input.model, { id: "m1", display_name: "m1" });
    assert.deepEqual(input.workspace, { current_dir: "/w", project_dir: "/proj", added_dirs: [] });
    assert.equal(input.cost.total_cost_usd, 0.5);
    assert.equal(input.context_window.used_percentage, 25);
    assert.equal(input.exceeds_200k_tokens, false);
    await Deno.remove(join(dir, "in.json"));
    assert.equal(await status.refresh(FACTS), " line 99 /proj", "within 300 ms: not run again");
    assert.equal(await Deno.stat(join(dir, "in.json")).then(() => true, () => false), false);
    assert.deepEqual(warnings, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a failing or slow status-line script warns once and keeps the line it had", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const flag = join(dir, "slow");
    const warnings: string[] = [];
    const status = new StatusScript(
      {
        command:
          `if [ -e '${flag}' ]; then sleep 5; elif [ -e '${flag}.fail' ]; then exit 3; fi; echo ok`,
        padding: 0,
        source: "config.toml",
        projectDir: dir,
      },
      {
        cwd: dir,
        env: { PATH: Deno.env.get("PATH") ?? "" },
        warn: (w) => warnings.push(w),
        columns: () => 80,
        timeoutMs: 400,
        throttleMs: 0,
      },
    );
    assert.equal(await status.refresh(FACTS), "ok");
    await Deno.writeTextFile(flag, "");
    assert.equal(await status.refresh(FACTS), "ok");
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /of config\.toml took longer than 0\.4 s: its last line stays/);
    await Deno.remove(flag);
    await Deno.writeTextFile(`${flag}.fail`, "");
    assert.equal(await status.refresh(FACTS), "ok");
    assert.equal(warnings.length, 1, "warned once");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a status-line script that fails before printing leaves the built-in line", async () => {
  const warnings: string[] = [];
  const status = new StatusScript(
    { command: "echo oops >&2; exit 3", padding: 0, source: "s.json", projectDir: "/" },
    {
      cwd: "/",
      env: { PATH: Deno.env.get("PATH") ?? "" },
      warn: (w) => warnings.push(w),
      columns: () => 80,
    },
  );
  assert.equal(await status.refresh(FACTS), undefined);
  assert.equal(status.line(), undefined);
  assert.deepEqual(warnings, [
    'The status-line command "echo oops >&2; exit 3" of s.json exited with code 3 (oops): the ' +
    "built-in status line stays. Fix the script, or remove it",
  ]);
});
