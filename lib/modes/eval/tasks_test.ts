import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { ConfigError } from "../../errors.ts";
import { loadTasks } from "./tasks.ts";

/** A temporary folder holding `files`, removed on dispose. */
async function tempFiles(files: Record<string, string>) {
  const dir = await Deno.makeTempDir({ prefix: "eval_tasks_" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

/** Asserts that `promise` rejects with a `ConfigError` whose message and hint match. */
async function rejectsConfig(promise: Promise<unknown>, message: RegExp, hint: RegExp) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof ConfigError, String(error));
    assert.match(error.message, message);
    assert.match(error.hint ?? "", hint);
    return true;
  });
}

const TWO_TASKS = `
[[task]]
name = "fix-parser"
prompt = "Make the failing test pass"
check = "deno test"
setup = "npm ci"
network = true
timeout = 300
check_timeout = 60

[[task]]
name = "readme"
prompt_file = "prompts/readme.md"
`;

Deno.test("loadTasks() reads [[task]] tables in order and fills in the defaults", async () => {
  await using t = await tempFiles({
    "tasks.toml": TWO_TASKS,
    "prompts/readme.md": "Write a README\n",
  });
  const tasks = await loadTasks(join(t.dir, "tasks.toml"), { check: "true", timeoutSec: 900 });
  assert.deepEqual(tasks, [
    {
      name: "fix-parser",
      prompt: "Make the failing test pass",
      check: "deno test",
      setup: "npm ci",
      network: true,
      timeoutSec: 300,
      checkTimeoutSec: 60,
    },
    { name: "readme", prompt: "Write a README\n", check: "true", timeoutSec: 900 },
  ]);
});

Deno.test("loadTasks() refuses a task with no check when no default check is given", async () => {
  await using t = await tempFiles({ "tasks.toml": TWO_TASKS, "prompts/readme.md": "x" });
  await rejectsConfig(
    loadTasks(join(t.dir, "tasks.toml"), {}),
    /Task "readme" in ".*tasks\.toml" has no check: nothing would tell pass from fail/,
    /--check "CMD".*check = "/,
  );
});

Deno.test("loadTasks() names the file, task, key and line of an unknown key", async () => {
  await using t = await tempFiles({
    "tasks.toml": '[[task]]\nname = "a"\nprompt = "x"\n\n[[task]]\nname = "b"\npromt = "y"\n',
  });
  await rejectsConfig(
    loadTasks(join(t.dir, "tasks.toml"), { check: "true" }),
    /^Unknown key "promt" in task "b" of ".*tasks\.toml" at line 5; did you mean "prompt"\?$/,
    /"name", "prompt", "prompt_file", "check"/,
  );
});

Deno.test("loadTasks() names the key and line of a value of the wrong type", async () => {
  await using t = await tempFiles({
    "tasks.toml": '[[task]]\nname = "a"\nprompt = "x"\ntimeout = "ten"\n',
  });
  await rejectsConfig(
    loadTasks(join(t.dir, "tasks.toml"), { check: "true" }),
    /^Invalid "timeout" in task "a" of ".*tasks\.toml" at line 4: expected a number of seconds/,
    /timeout = 600/,
  );
});

Deno.test("loadTasks() refuses a task without a name or a prompt, or with both prompts", async () => {
  const cases: Array<[string, RegExp, RegExp]> = [
    ['[[task]]\nprompt = "x"\n', /^Missing "name" in task 1 of ".*" at line 1$/, /name = "/],
    ['[[task]]\nname = "a b"\nprompt = "x"\n', /Invalid "name" in task "a b".*folders/, /name =/],
    ['[[task]]\nname = "a"\n', /Task "a" in ".*" has no prompt/, /prompt = .*prompt_file = /],
    [
      '[[task]]\nname = "a"\nprompt = "x"\nprompt_file = "p.md"\n',
      /Cannot use both "prompt" and "prompt_file" in task "a"/,
      /Keep one/,
    ],
    [
      '[[task]]\nname = "a"\nprompt_file = "gone.md"\n',
      /"prompt_file" of task "a".*line 3/,
      /gone/,
    ],
  ];
  for (const [text, message, hint] of cases) {
    await using t = await tempFiles({ "tasks.toml": text });
    await rejectsConfig(loadTasks(join(t.dir, "tasks.toml"), { check: "true" }), message, hint);
  }
});

Deno.test("loadTasks() refuses two tasks of the same name", async () => {
  await using t = await tempFiles({
    "tasks.toml": '[[task]]\nname = "a"\nprompt = "x"\n[[task]]\nname = "a"\nprompt = "y"\n',
  });
  await rejectsConfig(
    loadTasks(join(t.dir, "tasks.toml"), { check: "true" }),
    /Task "a" is defined twice in ".*tasks\.toml"/,
    /a name of its own/,
  );
});

Deno.test("loadTasks() refuses a file that is not a list of [[task]] tables", async () => {
  const cases: Array<[string, RegExp, RegExp]> = [
    ['[[tasks]]\nname = "a"\n', /Unknown key "tasks" .*did you mean "task"\?/, /\[\[task\]\]/],
    ["# nothing yet\n", /it has no \[\[task\]\] tables/, /\[\[task\]\] name = /],
    ['task = "a"\n', /it has no \[\[task\]\] tables/, /\[\[task\]\]/],
    ["[[task]\n", /Cannot parse ".*tasks\.toml" at line 1/, /TOML syntax|set twice/],
  ];
  for (const [text, message, hint] of cases) {
    await using t = await tempFiles({ "tasks.toml": text });
    await rejectsConfig(loadTasks(join(t.dir, "tasks.toml"), { check: "true" }), message, hint);
  }
});

Deno.test("loadTasks() refuses a missing path, a non-TOML file and a folder of no tasks", async () => {
  await using t = await tempFiles({ "tasks.yaml": "task: a\n", "empty/readme.md": "x" });
  await rejectsConfig(
    loadTasks(join(t.dir, "gone.toml"), {}),
    /Cannot read tasks from ".*gone\.toml"/,
    /\.toml task file, a Harbor task folder/,
  );
  await rejectsConfig(
    loadTasks(join(t.dir, "tasks.yaml"), {}),
    /it is not a \.toml task file/,
    /\[\[task\]\] tables/,
  );
  await rejectsConfig(
    loadTasks(join(t.dir, "empty"), {}),
    /Cannot find tasks in ".*empty": it holds no task\.toml/,
    /Harbor task folder \(task\.toml, instruction\.md, tests\/test\.sh\)/,
  );
});

Deno.test("loadTasks() reports a bad table before a task that lacks a check", async () => {
  await using t = await tempFiles({
    "tasks.toml": '[[task]]\nname = "a"\nprompt = "x"\n[[task]]\nname = "b"\nprompt = 1\n',
  });
  await rejectsConfig(
    loadTasks(join(t.dir, "tasks.toml"), {}),
    /^Invalid "prompt" in task "b" of ".*" at line 6: expected a non-empty string$/,
    /prompt = "/,
  );
});
