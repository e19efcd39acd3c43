import assert from "node:assert/strict";
import { dirname } from "node:path";
import { UsageError } from "../../errors.ts";
import type { Session } from "../../session/open.ts";
import { makeStyle } from "../term/style.ts";
import { arenaProgram } from "../../cli/arena_cli.ts";
import { arenaContinueLine } from "./repl_hints.ts";
import {
  arena,
  ARENA_FLAGS,
  arenaArgs,
  type ArenaContext,
  type ChildRun,
} from "./arena_command.ts";

/** A command context over a session in `cwd`; what it prints and continues is recorded. */
function fakeContext(cwd: string, opts: { terminal?: boolean } = {}) {
  const printed: string[] = [];
  const continued: string[] = [];
  const session = { status: () => ({ cwd }) } as unknown as Session;
  const ctx: ArenaContext = {
    session: () => session,
    print: (lines) => printed.push(...lines),
    style: makeStyle(false),
    interruptible: (task) => task(new AbortController().signal),
    continueSession: (id) => {
      continued.push(id);
      return Promise.resolve();
    },
    reviewBase: () => ({ env: { MARK: "from-the-repl" } }),
    ...(opts.terminal ? { onTerminal: (run) => run() } : {}),
  };
  return { ctx, printed, continued };
}

/** A spawner that records the child and writes `handoff` (when given) where it was told. */
function fakeArena(handoff: string | undefined, code = 0) {
  const runs: ChildRun[] = [];
  const spawn = async (child: ChildRun) => {
    runs.push(child);
    const file = child.argv[child.argv.indexOf("--handoff") + 1];
    if (handoff !== undefined) await Deno.writeTextFile(file, handoff);
    return code;
  };
  return { runs, spawn, handoffFile: () => runs[0].argv[runs[0].argv.indexOf("--handoff") + 1] };
}

const CONTINUE_B = JSON.stringify({
  applied: "b",
  continue: { label: "b", session_id: "0190-abc", harness: "minimal", model: "fake-model" },
});

Deno.test("arenaArgs() keeps quoted flag values whole and joins the other words into the prompt", () => {
  assert.deepEqual(
    arenaArgs(`--harness native,minimal --check "python3 -m pytest -q" fix the streak bug`),
    {
      flags: ["--harness", "native,minimal", "--check", "python3 -m pytest -q"],
      prompt: ["--", "fix the streak bug"],
    },
  );
  assert.deepEqual(arenaArgs("fix it -y --pick none -- -v is wrong"), {
    flags: ["-y", "--pick", "none"],
    prompt: ["--", "fix it -v is wrong"],
  });
  assert.deepEqual(arenaArgs("--pick best"), { flags: ["--pick", "best"], prompt: [] });
  assert.throws(() => arenaArgs("fix it --check"), (e: unknown) => {
    assert.ok(e instanceof UsageError);
    assert.match(e.message, /"--check" needs a value/);
    return true;
  });
});

Deno.test("arena() runs interpreter arena with the handoff flag in the session's folder, then continues the picked session", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const { ctx, printed, continued } = fakeContext(cwd, { terminal: true });
    const child = fakeArena(CONTINUE_B);
    await arena(`-m fake-model --harness native,minimal "fix the bug"`, ctx, child.spawn);
    const [run] = child.runs;
    const argv = run.argv.slice(run.argv.indexOf("arena"));
    assert.deepEqual(argv, [
      "arena",
      "-m",
      "fake-model",
      "--harness",
      "native,minimal",
      "--handoff",
      child.handoffFile(),
      "--",
      "fix the bug",
    ]);
    assert.match(run.argv.join(" "), /main\.ts|interpreter/);
    assert.equal(run.cwd, cwd);
    assert.deepEqual(run.env, { MARK: "from-the-repl" });
    assert.equal(run.stdin, "inherit");
    assert.deepEqual(continued, ["0190-abc"]);
    assert.deepEqual(printed, ["Continuing b (minimal × fake-model): session 0190-abc"]);
    await assert.rejects(Deno.stat(dirname(child.handoffFile())), Deno.errors.NotFound);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("arena() keeps the session when the arena applied a patch, failed, or wrote a garbled handoff", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const applied = fakeContext(cwd);
    const child = fakeArena(JSON.stringify({ applied: "a", continue: null }));
    await arena("fix it", applied.ctx, child.spawn);
    assert.equal(child.runs[0].stdin, "null", "no terminal: the child reads nothing");
    assert.deepEqual([applied.continued, applied.printed], [[], []]);

    const failed = fakeContext(cwd, { terminal: true });
    await arena("--pick best fix it", failed.ctx, fakeArena(undefined, 2).spawn);
    assert.deepEqual(failed.printed, ["The arena failed (exit 2); this session goes on"]);
    await arena("fix it", failed.ctx, fakeArena(undefined, 130).spawn);
    assert.equal(failed.printed[1], "The arena was stopped; this session goes on");
    assert.deepEqual(failed.continued, []);

    const unsaved = fakeContext(cwd, { terminal: true });
    const noSession = { label: "a", session_id: null, harness: "native", model: "m" };
    await arena(
      "fix it",
      unsaved.ctx,
      fakeArena(JSON.stringify({ applied: "a", continue: noSession })).spawn,
    );
    assert.deepEqual(unsaved.printed, [
      "a (native × m) saved no session to continue; this session goes on",
    ]);
    assert.deepEqual(unsaved.continued, []);

    for (const text of ["{not json", '{"applied":null,"continue":{"label":"b"}}', "[]"]) {
      const garbled = fakeContext(cwd, { terminal: true });
      const child = fakeArena(text);
      await assert.rejects(arena("fix it", garbled.ctx, child.spawn), (e: unknown) => {
        assert.ok(e instanceof UsageError);
        assert.match(e.message, /^Cannot read the arena's answer ".*handoff\.json": /);
        assert.match(e.hint ?? "", /This session goes on/);
        return true;
      });
      assert.deepEqual(garbled.continued, [], text);
      await assert.rejects(Deno.stat(dirname(child.handoffFile())), Deno.errors.NotFound);
    }
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("arena() lists every flag of interpreter arena when given none", async () => {
  const { ctx, printed, continued } = fakeContext("/nowhere");
  const child = fakeArena(CONTINUE_B);
  await arena("  ", ctx, child.spawn);
  assert.equal(child.runs.length, 0);
  assert.deepEqual(continued, []);
  const text = printed.join("\n");
  for (const flag of ["--harness", "--model", "--check", "--pick", "--yes", "--timeout", "--out"]) {
    assert.match(text, new RegExp(`^  .*${flag}`, "m"), flag);
  }
  assert.match(printed[0], /^\/arena \[FLAGS\] PROMPT/);
});

const INPUT = new URL("./input.ts", import.meta.url).href;
const COMMAND = new URL("./arena_command.ts", import.meta.url).href;

/**
 * A REPL in plain mode reading piped stdin: it reads a line; then stdin is read directly (as the
 * arena's picker reads it: a read left waiting by the REPL would take that line), a child runs on
 * its stdin as /arena does, and the REPL reads again.
 */
const PLAIN_REPL = `
import { plainInput } from ${JSON.stringify(INPUT)};
import { spawnChild } from ${JSON.stringify(COMMAND)};
const input = plainInput({ write: () => {}, showPrompt: false });
console.log("repl: " + await input.line("> "));
const bytes = new Uint8Array(100);
const n = await Deno.stdin.read(bytes);
console.log("direct: " + new TextDecoder().decode(bytes.subarray(0, n ?? 0)).trim());
const argv = ["sh", "-c", "read answer && echo child: $answer"];
const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
const code = await spawnChild({ argv, cwd: ".", env, stdin: "inherit" }, new AbortController().signal);
console.log("repl: " + await input.line("> ") + " after exit " + code);
`;

Deno.test("spawnChild() in plain mode: the child reads the line typed while it runs, the REPL the next", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", PLAIN_REPL],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const deadline = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const writer = child.stdin.getWriter();
  let seen = "";
  const upTo = async (text: string) => {
    while (!seen.includes(text)) {
      const { value, done } = await stdout.read();
      if (done) break;
      seen += value;
    }
  };
  try {
    // Each line is sent once the one before was taken, as a person types at the prompt.
    await writer.write(new TextEncoder().encode("/arena fix it\n"));
    await upTo("repl: /arena fix it\n");
    await writer.write(new TextEncoder().encode("diff a\n"));
    await upTo("direct: diff a\n");
    await writer.write(new TextEncoder().encode("continue with b\n"));
    await upTo("child: continue with b\n");
    await writer.write(new TextEncoder().encode("next prompt\n"));
    await writer.close();
    await upTo("after exit");
    await upTo("\n");
  } finally {
    clearTimeout(deadline);
    await writer.close().catch(() => {});
    const stderr = await new Response(child.stderr).text();
    await child.status;
    assert.equal(
      seen,
      "repl: /arena fix it\ndirect: diff a\nchild: continue with b\n" +
        "repl: next prompt after exit 0\n",
      stderr,
    );
  }
});

Deno.test("/arena splits and lists exactly the flags interpreter arena takes", () => {
  const cli = arenaProgram(() => {}).options.filter((o) => !o.hidden).map((o) =>
    [o.short, o.long].filter(Boolean).join(" ") + (o.required || o.optional ? " value" : "")
  );
  const repl = ARENA_FLAGS.map((f) => f.names.join(" ") + (f.value ? " value" : ""));
  assert.deepEqual(repl.sort(), cli.sort());
});

Deno.test("after an arena, continue with X (or /arena continue X) continues that contestant's session", async () => {
  const { ctx, printed, continued } = fakeContext("/work", { terminal: true });
  let offered: string[] = [];
  ctx.offerContinue = (labels) => offered = labels;
  const contestants = [
    { label: "a", session_id: "0190-aaa", harness: "native", model: "fake-model" },
    { label: "b", session_id: "0190-bbb", harness: "minimal", model: "fake-model" },
    { label: "c", session_id: null, harness: "claude-code", model: "fake-model" },
  ];
  const picked = fakeArena(JSON.stringify({ applied: "a", continue: null, contestants }));
  await arena("--harness native,minimal,claude-code --pick best fix it", ctx, picked.spawn);
  assert.deepEqual(continued, []);
  assert.deepEqual(offered, ["a", "b"], "c saved no session");
  assert.match(printed.join("\n"), /continue with a\|b/);

  assert.equal(arenaContinueLine("continue with B", offered), "/arena continue b");
  assert.equal(arenaContinueLine("continue a", offered), "/arena continue a");
  assert.equal(arenaContinueLine("continue with c", offered), undefined);
  assert.equal(arenaContinueLine("continue the refactor", offered), undefined);
  assert.equal(arenaContinueLine("continue with a", undefined), undefined);

  const none = fakeArena(undefined);
  await arena("continue b", ctx, none.spawn);
  assert.deepEqual([continued, none.runs.length], [["0190-bbb"], 0]);
  assert.match(printed.at(-1)!, /Continuing b \(minimal × fake-model\): session 0190-bbb/);
  await assert.rejects(() => arena("continue with z", ctx, none.spawn), /no contestant "z"/);
});

Deno.test("/arena in plain mode runs the arena under TERM=dumb, so its status is whole lines", async () => {
  const { ctx } = fakeContext("/work");
  const plain = fakeArena(JSON.stringify({ applied: null, continue: null }));
  await arena("--harness native,minimal fix it", { ...ctx, numbered: true }, plain.spawn);
  const styled = fakeArena(JSON.stringify({ applied: null, continue: null }));
  await arena("--harness native,minimal fix it", ctx, styled.spawn);
  assert.deepEqual([plain.runs[0].env.TERM, styled.runs[0].env.TERM], ["dumb", undefined]);
});
