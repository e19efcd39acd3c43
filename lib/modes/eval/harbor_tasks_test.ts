import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, UserError } from "../../errors.ts";
import { resolveVerifierEnv, shellWord } from "./harbor_tasks.ts";
import { loadTasks } from "./tasks.ts";

const FIXTURES = fileURLToPath(new URL("../../../tests/fixtures/harbor_tasks", import.meta.url));

const TEST_SH = "#!/bin/sh\necho 1 > /logs/verifier/reward.txt\n";

/** A temporary folder holding `files`, removed on dispose. */
async function tempFiles(files: Record<string, string>) {
  const dir = await Deno.makeTempDir({ prefix: "harbor_tasks_" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

/** The files of a Harbor task folder `name` with task.toml `toml`. */
function harborTask(name: string, toml: string): Record<string, string> {
  return {
    [`${name}/task.toml`]: toml,
    [`${name}/instruction.md`]: `Do ${name}\n`,
    [`${name}/tests/test.sh`]: TEST_SH,
  };
}

/** The error `promise` rejects with, checked to be an instance of `kind`. */
async function rejection<E extends Error>(
  promise: Promise<unknown>,
  kind: new (...args: never[]) => E,
): Promise<E> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof kind, `expected ${kind.name}, got ${error}`);
    return error;
  }
  throw new assert.AssertionError({ message: `expected a ${kind.name}` });
}

Deno.test("loadTasks() reads a Harbor task folder: instruction, limits and folder", async () => {
  const tasks = await loadTasks(join(FIXTURES, "hello"), { check: "ignored", timeoutSec: 999 });
  assert.deepEqual(tasks, [{
    name: "hello",
    prompt: "Create hello.txt containing Hello\n",
    timeoutSec: 120,
    checkTimeoutSec: 60,
    network: true,
    harborDir: join(FIXTURES, "hello"),
  }]);
  const info = await Deno.stat(join(FIXTURES, "hello", "tests", "test.sh"));
  assert.ok(Deno.build.os === "windows" || (info.mode! & 0o111) !== 0, "test.sh is executable");
});

Deno.test("loadTasks() reads a folder of Harbor tasks by name, keys old and new", async () => {
  await using t = await tempFiles({
    ...harborTask("b_task", 'version = "1.0"\n[metadata]\nauthor = "x"\n'),
    ...harborTask(
      "a_folder",
      'schema_version = "1.4"\nartifacts = []\n[task]\nname = "org/alpha"\n' +
        '[verifier]\ntimeout_sec = 30.0\n[environment]\nnetwork_mode = "public"\n',
    ),
    ".hidden/task.toml": "nonsense = [",
    "notes/readme.md": "not a task",
  });
  const tasks = await loadTasks(t.dir, { timeoutSec: 45 });
  assert.deepEqual(tasks.map((task) => [task.name, task.timeoutSec, task.checkTimeoutSec]), [
    ["alpha", 45, 30],
    ["b_task", 45, 600],
  ]);
  assert.deepEqual(tasks.map((task) => task.harborDir), [
    join(t.dir, "a_folder"),
    join(t.dir, "b_task"),
  ]);
});

Deno.test("loadTasks() refuses a task that needs Docker with the harbor run command", async () => {
  const dir = join(FIXTURES, "needs_docker");
  const error = await rejection(loadTasks(dir, {}), UserError);
  assert.ok(!(error instanceof ConfigError));
  assert.equal(
    error.message,
    'Cannot run Harbor task "needs_docker" here: it needs a container built from ' +
      "environment/Dockerfile",
  );
  assert.match(
    error.hint!,
    new RegExp(
      `: PYTHONPATH=integrations/harbor harbor run -p ${dir} ` +
        "--agent-import-path interpreter_harbor:Interpreter -m MODEL --ak harness=HARNESS$",
    ),
  );
  assert.match(error.hint!, /^Run it with Harbor .*interpreter_harbor\.py/);
});

Deno.test("loadTasks() refuses a folder holding a container task, naming the folder", async () => {
  const error = await rejection(
    loadTasks(FIXTURES, {}, { model: "anthropic/claude-sonnet-4-5", harness: "claude-code" }),
    UserError,
  );
  assert.match(error.message, /"needs_docker" .*; 1 of the 3 tasks in ".*harbor_tasks" needs one$/);
  assert.match(
    error.hint!,
    new RegExp(
      `^Run them with Harbor.*harbor run -p ${FIXTURES} --agent-import-path interpreter_harbor:Interpreter ` +
        "-m anthropic/claude-sonnet-4-5 --ak harness=claude-code$",
    ),
  );
});

Deno.test("loadTasks() refuses an image, a compose file and steps", async () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [
      harborTask("img", '[environment]\ndocker_image = "alexgshaw/extract-elf:20251031"\n'),
      /needs the container image "alexgshaw\/extract-elf:20251031"/,
    ],
    [
      { ...harborTask("compose", ""), "compose/environment/docker-compose.yaml": "services: {}" },
      /needs a container built from environment\/docker-compose\.yaml/,
    ],
    [
      harborTask("steps", '[[steps]]\nname = "one"\n'),
      /needs Harbor's runner for its \[\[steps\]\]/,
    ],
  ];
  for (const [files, message] of cases) {
    await using t = await tempFiles(files);
    const error = await rejection(loadTasks(t.dir, {}, { shimDir: "/opt/my shim" }), UserError);
    assert.match(error.message, message);
    assert.match(error.hint!, /^Run it with Harbor.*: PYTHONPATH='\/opt\/my shim' harbor run/);
  }
});

Deno.test("loadTasks() refuses Harbor tasks that are incomplete or clash", async () => {
  const noTest = harborTask("a", "");
  delete noTest["a/tests/test.sh"];
  const noInstruction = harborTask("a", "");
  delete noInstruction["a/instruction.md"];
  const cases: Array<[Record<string, string>, RegExp, RegExp]> = [
    [noTest, /Harbor task "a" in ".*" has no tests\/test\.sh/, /reward\.txt/],
    [
      noInstruction,
      /Cannot read task instruction ".*instruction\.md"/,
      /instruction for the agent/,
    ],
    [
      {
        ...harborTask("a", '[task]\nname = "x/same"\n'),
        ...harborTask("b", '[task]\nname = "same"'),
      },
      /Tasks ".*a" and ".*b" have the same name "same"/,
      /\[task\] name/,
    ],
    [harborTask("a", '[agent]\ntimeout_sec = "soon"\n'), /Invalid "agent\.timeout_sec"/, /600/],
    [harborTask("a", '[task]\nname = "org/a b"\n'), /"a b" .*cannot name a folder/, /letters/],
  ];
  for (const [files, message, hint] of cases) {
    await using t = await tempFiles(files);
    const error = await rejection(loadTasks(t.dir, {}), ConfigError);
    assert.match(error.message, message);
    assert.match(error.hint ?? "", hint);
  }
});

Deno.test("loadTasks() gives a Harbor test the network its network_mode says, and its [verifier] env", async () => {
  await using t = await tempFiles({
    ...harborTask("a_default", ""),
    ...harborTask("b_off", '[environment]\nnetwork_mode = "no-network"\n'),
    ...harborTask("c_legacy_off", "[environment]\nallow_internet = false\n"),
    ...harborTask(
      "d_verifier_on",
      '[environment]\nnetwork_mode = "no-network"\n[verifier]\nnetwork_mode = "public"\n' +
        'env = { MODE = "strict", HOME_COPY = "${HOME}", LEVEL = "${LEVEL:-3}" }\n',
    ),
  });
  const tasks = await loadTasks(t.dir, {});
  assert.deepEqual(tasks.map((task) => [task.name, task.network]), [
    ["a_default", true],
    ["b_off", false],
    ["c_legacy_off", false],
    ["d_verifier_on", true],
  ]);
  assert.equal(tasks[0].verifierEnv, undefined);
  assert.deepEqual(resolveVerifierEnv(tasks[3], { HOME: "/h" }), {
    MODE: "strict",
    HOME_COPY: "/h",
    LEVEL: "3",
  });
  assert.throws(
    () => resolveVerifierEnv(tasks[3], {}),
    (error) => {
      assert.ok(error instanceof ConfigError);
      assert.match(
        error.message,
        /\[verifier\] env HOME_COPY of Harbor task "d_verifier_on" takes \$\{HOME\}/,
      );
      assert.match(error.hint ?? "", /\*KEY\*/);
      return true;
    },
  );
});

Deno.test("loadTasks() refuses a network allowlist with the harbor run command, and an unknown network_mode", async () => {
  {
    await using t = await tempFiles(
      harborTask("allow", '[environment]\nnetwork_mode = "allowlist"\nallowed_hosts = ["x.org"]\n'),
    );
    const error = await rejection(loadTasks(t.dir, {}), UserError);
    assert.match(error.message, /"allow" here: it needs a network allowlist .*cannot enforce/);
    assert.match(error.hint!, /harbor run -p /);
  }
  await using t = await tempFiles(harborTask("odd", '[verifier]\nnetwork_mode = "offline"\n'));
  const error = await rejection(loadTasks(t.dir, {}), ConfigError);
  assert.match(error.message, /Invalid network_mode "offline" in ".*task\.toml"/);
  assert.match(error.hint ?? "", /"no-network"/);
});

Deno.test("shellWord() quotes only words the shell would split or expand", () => {
  assert.equal(shellWord("anthropic/claude-sonnet-4-5"), "anthropic/claude-sonnet-4-5");
  assert.equal(shellWord("it's here"), `'it'\\''s here'`);
  assert.equal(shellWord("$HOME"), "'$HOME'");
});
