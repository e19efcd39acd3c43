import assert from "node:assert/strict";
import { commandEnvironment, type ShellEnvironmentPolicy } from "./env_policy.ts";
import { nameGlobRegExp } from "./name_glob.ts";

const PARENT: Record<string, string> = {
  PATH: "/usr/bin",
  HOME: "/home/u",
  LANG: "C.UTF-8",
  TERM: "xterm",
  OPENAI_API_KEY: "sk-1",
  github_token: "ghp",
  MY_SECRET_THING: "s",
  KEYBOARD: "us",
  EDITOR: "vim",
  Path: "windows-style",
};

function policy(overrides: Partial<ShellEnvironmentPolicy> = {}): ShellEnvironmentPolicy {
  return {
    inherit: "all",
    ignore_default_excludes: false,
    exclude: [],
    include_only: [],
    set: {},
    ...overrides,
  };
}

const names = (env: Record<string, string>) => Object.keys(env).sort();

Deno.test("commandEnvironment() inherits all minus *KEY*, *SECRET*, *TOKEN* by default", () => {
  assert.deepEqual(names(commandEnvironment(policy(), PARENT, { windows: false })), [
    "EDITOR",
    "HOME",
    "LANG",
    "PATH",
    "Path",
    "TERM",
  ]);
});

Deno.test("commandEnvironment() passes secrets through with ignore_default_excludes", () => {
  const env = commandEnvironment(policy({ ignore_default_excludes: true }), PARENT, {
    windows: false,
  });
  assert.deepEqual(env, PARENT);
});

Deno.test("commandEnvironment() keeps only the Unix core set, case-sensitively, for core", () => {
  const env = commandEnvironment(policy({ inherit: "core" }), PARENT, { windows: false });
  assert.deepEqual(env, { PATH: "/usr/bin", HOME: "/home/u", LANG: "C.UTF-8" });
});

Deno.test("commandEnvironment() matches the Windows core set case-insensitively", () => {
  const env = commandEnvironment(policy({ inherit: "core" }), { Path: "C:\\", HOME: "x" }, {
    windows: true,
  });
  assert.deepEqual(env, { Path: "C:\\" });
});

Deno.test("commandEnvironment() starts empty for inherit none, then applies set", () => {
  const env = commandEnvironment(policy({ inherit: "none", set: { CI: "1" } }), PARENT);
  assert.deepEqual(env, { CI: "1" });
});

Deno.test("commandEnvironment() drops names matching exclude globs, case-insensitively", () => {
  const env = commandEnvironment(policy({ exclude: ["term", "ED?TOR", "[hl]*"] }), PARENT, {
    windows: false,
  });
  assert.deepEqual(names(env), ["PATH", "Path"]);
});

Deno.test("commandEnvironment() lets set override and add after the excludes", () => {
  const env = commandEnvironment(
    policy({ set: { PATH: "/opt/bin", SERVICE_TOKEN: "kept" } }),
    PARENT,
    { windows: false },
  );
  assert.equal(env.PATH, "/opt/bin");
  assert.equal(env.SERVICE_TOKEN, "kept");
});

Deno.test("commandEnvironment() applies include_only last, to set values too", () => {
  const env = commandEnvironment(
    policy({ include_only: ["PATH", "x_*"], set: { X_ONE: "1", OTHER: "2" } }),
    PARENT,
    { windows: false },
  );
  assert.deepEqual(env, { PATH: "/usr/bin", Path: "windows-style", X_ONE: "1" });
});

Deno.test("nameGlobRegExp() supports *, ?, classes, negation and escapes the rest", () => {
  assert.ok(nameGlobRegExp("*key*").test("OPENAI_API_KEY"));
  assert.ok(nameGlobRegExp("A?C").test("abc"));
  assert.ok(!nameGlobRegExp("A?C").test("abbc"));
  assert.ok(nameGlobRegExp("LC_[A-C]*").test("LC_ALL"));
  assert.ok(!nameGlobRegExp("LC_[!A]*").test("LC_ALL"));
  assert.ok(nameGlobRegExp("A.B+").test("a.b+"));
  assert.ok(!nameGlobRegExp("A.B").test("AxB"));
  assert.ok(nameGlobRegExp("[").test("["));
  assert.ok(!nameGlobRegExp("PATH").test("MYPATH"));
});
