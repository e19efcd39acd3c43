import assert from "node:assert/strict";
import { expandEntry, expandText } from "./expand.ts";

const ctx = { env: { SET: "v", EMPTY: "" }, projectRoot: "/repo", userHome: "/home/u" };

function expand(text: string, vendor: Parameters<typeof expandText>[1]) {
  const unset = new Set<string>();
  return [expandText(text, vendor, ctx, unset), [...unset]];
}

Deno.test("expandText() fills in each vendor's variables and names the unset ones", () => {
  assert.deepEqual(expand("${SET}/${NOPE:-d}/${NOPE}/${EMPTY}/$SET", "claude"), [
    "v/d/${NOPE}//$SET",
    ["NOPE"],
  ]);
  assert.deepEqual(expand("$SET-${SET}-${NOPE:-d}-$NOPE.", "gemini"), ["v-v-d-.", ["NOPE"]]);
  assert.deepEqual(expand("{env:SET}{env:NOPE}$SET", "opencode"), ["v$SET", ["NOPE"]]);
  assert.deepEqual(
    expand("${env:SET}:${userHome}:${workspaceFolder}:${env:NOPE}", "cursor"),
    ["v:/home/u:/repo:", ["NOPE"]],
  );
});

Deno.test("expandEntry() fills in command, args, env, cwd, url and headers only", () => {
  const { entry, unset } = expandEntry(
    {
      command: "${SET}",
      args: ["${SET}"],
      env: { A: "${SET}" },
      cwd: "${SET}",
      http_headers: { H: "Bearer ${TOKEN}" },
      enabled_tools: ["${SET}"],
    },
    "claude",
    ctx,
  );
  assert.deepEqual(entry, {
    command: "v",
    args: ["v"],
    env: { A: "v" },
    cwd: "v",
    http_headers: { H: "Bearer ${TOKEN}" },
    enabled_tools: ["${SET}"],
  });
  assert.deepEqual(unset, ["TOKEN"]);
});
