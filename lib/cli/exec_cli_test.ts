import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { parseArgs } from "./cli.ts";
import { imagePaths } from "../modes/exec/exec_images.ts";

function exec(argv: string[]) {
  const invocation = parseArgs(argv, "test");
  assert.equal(invocation.mode, "exec");
  return invocation as Extract<typeof invocation, { mode: "exec" }>;
}

Deno.test("exec accepts the Codex SDK's argv, --image after resume ID included", () => {
  const { prompt, options } = exec([
    "exec",
    "--experimental-json",
    "--config",
    'model_provider="mock"',
    "--config",
    "sandbox_workspace_write.network_access=false",
    "--config",
    'openai_base_url="http://127.0.0.1:1/v1"',
    "--model",
    "gpt-5.5",
    "--thread-source",
    "app",
    "--sandbox",
    "workspace-write",
    "--cd",
    "/ws",
    "--add-dir",
    "/tmp",
    "--skip-git-repo-check",
    "--output-schema",
    "/tmp/schema.json",
    "--cyber-access-program",
    "standard",
    "--config",
    "sandbox_workspace_write.network_access=true",
    "resume",
    "01a22995-21e8-7ad0-a52b-f84af728d041",
    "--image",
    "/ws/dot.png",
  ]);
  assert.equal(prompt, undefined);
  assert.equal(options.experimentalJson, true);
  assert.deepEqual(options.config, [
    'model_provider="mock"',
    "sandbox_workspace_write.network_access=false",
    'openai_base_url="http://127.0.0.1:1/v1"',
    "sandbox_workspace_write.network_access=true",
  ]);
  assert.equal(options.model, "gpt-5.5");
  assert.equal(options.sandbox, "workspace-write");
  assert.equal(options.cd, "/ws");
  assert.deepEqual(options.addDir, ["/tmp"]);
  assert.equal(options.skipGitRepoCheck, true);
  assert.equal(options.outputSchema, "/tmp/schema.json");
  assert.deepEqual(options.image, ["/ws/dot.png"]);
  assert.deepEqual(options.resume, { id: "01a22995-21e8-7ad0-a52b-f84af728d041", all: undefined });
});

Deno.test("exec takes --image before resume (older SDKs) and comma lists", () => {
  const { options } = exec([
    "exec",
    "--json",
    "-i",
    "a.png,b.png",
    "resume",
    "abcd",
    "-i",
    "c.png",
  ]);
  assert.equal(options.json, true);
  assert.deepEqual(imagePaths(options.image ?? []), ["a.png", "b.png", "c.png"]);
});

Deno.test("exec resume --last takes its one positional as the prompt", () => {
  const { prompt, options } = exec(["exec", "resume", "--last", "--all", "go on"]);
  assert.equal(prompt, "go on");
  assert.deepEqual(options.resume, { last: true, all: true });
  const byId = exec(["exec", "resume", "abcd", "go on", "--ephemeral", "-o", "out.txt"]);
  assert.equal(byId.prompt, "go on");
  assert.equal(byId.options.ephemeral, true);
  assert.equal(byId.options.outputLastMessage, "out.txt");
});

Deno.test("exec resume needs a session id or --last, not both", () => {
  assert.throws(() => parseArgs(["exec", "resume"], "test"), UsageError);
  assert.throws(() => parseArgs(["exec", "resume", "--last", "abcd", "go"], "test"), UsageError);
});
