/**
 * Sub-agents defined for other agents (issue 33 §2), in a copy of the shared fixture repository's
 * agent folders: claude-code's Agent tool offers the project's `reviewer`, which runs with only
 * its tools and its own system prompt; a sub-agent's sandbox is never wider than the parent's
 * (a Codex read-only agent cannot write under workspace-write, and nothing writes under a
 * read-only parent); the REPL's `/agents` lists every agent with its file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, interpreter, REPO, run, tempDirs } from "./_harness_env.ts";
import { pipedRepl, trustedProject } from "./_setups_repo.ts";

/** The fixture's agent folders (not the other parts' files) and its one source file. */
const AGENT_PATHS = [
  ".claude/agents",
  ".agents/agents",
  ".gemini/agents",
  ".codex/agents",
  ".opencode/agent",
  "habits.py",
];

async function copyTree(from: string, to: string): Promise<void> {
  const info = await Deno.stat(from);
  if (info.isFile) {
    await Deno.mkdir(join(to, ".."), { recursive: true });
    return await Deno.copyFile(from, to);
  }
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    await copyTree(join(from, entry.name), join(to, entry.name));
  }
}

/** A git repository with the fixture's agents. */
async function agentsRepo(): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi-agents-e2e-" }));
  const fixture = join(REPO, "tests", "fixtures", "setups", "repo");
  for (const path of AGENT_PATHS) await copyTree(join(fixture, path), join(dir, path));
  await run("git", ["init", "-q"], dir);
  return dir;
}

/** A config home on the fake provider that trusts `repo`. */
function trustingHome(baseUrl: string, repo: string): Promise<string> {
  return fakeHome(
    baseUrl,
    "messages",
    trustedProject(repo),
  );
}

interface Body {
  system?: unknown;
  tools?: Array<{ name: string }>;
  messages?: unknown;
}

const bodyOf = (fake: { requests: Array<{ body: unknown }> }, i: number) =>
  fake.requests[i].body as Body;
const toolNames = (body: Body) => (body.tools ?? []).map((t) => t.name).sort();

const agentCall = (subagent_type: string, prompt: string) => ({
  reply: {
    tool_calls: [{ name: "Agent", args: { description: "delegate", prompt, subagent_type } }],
  },
});

Deno.test("claude-code offers the project's reviewer and runs it with its tools and prompt", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(agentsRepo());
  await using fake = await startFakeProvider([
    agentCall("reviewer", "Review habits.py"),
    { reply: { tool_calls: [{ name: "Read", args: { file_path: join(repo, "habits.py") } }] } },
    { expect: { last_tool_result_contains: "def" }, reply: { text: "No bugs found." } },
    { expect: { last_tool_result_contains: "No bugs found." }, reply: { text: "Reviewed." } },
  ]);
  const home = await dirs.add(trustingHome(fake.baseUrl, repo));
  const result = await interpreter(["exec", "--harness", "claude-code", "review it"], {
    cwd: repo,
    home,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(fake.failures, []);
  assert.equal(result.stdout.trim(), "Reviewed.");
  const parent = JSON.stringify(bodyOf(fake, 0).messages);
  assert.match(
    parent,
    /- reviewer: Reviews code for bugs and risky changes\. Use proactively after edits\. \(Tools: Read\)/,
  );
  assert.match(parent, /- tester: Runs the test suite and reports failures\. \(Tools: Bash, Read/);
  assert.match(parent, /- auditor: Read-only auditor/);
  assert.doesNotMatch(parent, /- build:|- draft:/, "primary and _ files are no sub-agents");
  const sub = bodyOf(fake, 1);
  // Claude Code 2.1.332 has no Grep tool of its own: Read is all of reviewer's tools it has.
  assert.deepEqual(toolNames(sub), ["Read"]);
  assert.match(JSON.stringify(sub.system), /You are the project's code reviewer/);
  assert.doesNotMatch(JSON.stringify(sub.system), /Agent types for the Agent tool/);
  assert.match(
    result.stderr,
    /reviewer .*asks for the model "sonnet", which this provider does not offer/,
  );
});

Deno.test("a defined sub-agent's sandbox is never wider than its parent's", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(agentsRepo());
  await using fake = await startFakeProvider([
    // Under workspace-write, Codex's read-only auditor may not write.
    agentCall("auditor", "Audit"),
    { reply: { tool_calls: [{ name: "Bash", args: { command: "touch audited.txt" } }] } },
    { expect: { last_tool_result_contains: "auditor is read-only" }, reply: { text: "refused" } },
    { reply: { text: "audit done" } },
    // Under a read-only parent, tester (Bash) cannot write either.
    agentCall("tester", "Test"),
    { reply: { tool_calls: [{ name: "Bash", args: { command: "touch tested.txt" } }] } },
    { reply: { text: "could not write" } },
    { reply: { text: "test done" } },
  ]);
  const home = await dirs.add(trustingHome(fake.baseUrl, repo));
  const args = (
    mode: string,
    prompt: string,
  ) => ["exec", "--harness", "claude-code", "-s", mode, "-a", "never", prompt];
  const audit = await interpreter(args("workspace-write", "audit"), { cwd: repo, home });
  assert.equal(audit.code, 0, audit.stderr);
  const test = await interpreter(args("read-only", "test"), { cwd: repo, home });
  assert.equal(test.code, 0, test.stderr);
  assert.deepEqual(fake.failures, []);
  assert.match(JSON.stringify(bodyOf(fake, 1).system), /Report risks with file:line/);
  for (const file of ["audited.txt", "tested.txt"]) {
    const made = await Deno.stat(join(repo, file)).then(() => true, () => false);
    assert.equal(made, false, `${file} must not be written`);
  }
});

Deno.test("/agents lists the built-in and defined sub-agents with their files", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(agentsRepo());
  await using fake = await startFakeProvider([]);
  const home = await dirs.add(trustingHome(fake.baseUrl, repo));
  const out = await pipedRepl(["--harness", "claude-code"], {
    cwd: repo,
    home,
    stdin: "/agents\n",
    env: { NO_COLOR: "1" },
  });
  const stdout = out.stdout;
  assert.equal(out.code, 0, stdout + out.stderr);
  assert.match(stdout, /Built-in \(claude-code\): general-purpose, Explore, Plan/);
  assert.match(
    stdout,
    /reviewer {2}Reviews code[^\n]*\n {2}project, Claude Code: \.claude\/agents\/reviewer\.md {2}\(tools: Read, Grep; model: sonnet\)/,
  );
  assert.match(
    stdout,
    /doc-checker[^\n]*\n {2}project, Gemini CLI: \.gemini\/agents\/doc-checker\.md/,
  );
  assert.match(
    stdout,
    /auditor[^\n]*\n {2}project, Codex: \.codex\/agents\/auditor\.toml {2}\(tools: all; read-only\)/,
  );
  assert.match(
    stdout,
    /docs-writer[^\n]*\n {2}project, opencode: \.opencode\/agent\/docs-writer\.md/,
  );
  assert.match(stdout, /tester[^\n]*\n {2}project, interpreter: \.agents\/agents\/tester\.md/);
});

interface ChatBody {
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string; description: string } }>;
}

Deno.test("gemini-cli, qwen-code and opencode offer the defined sub-agents their vendor's way", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(agentsRepo());
  await using fake = await startFakeProvider([
    {
      reply: {
        tool_calls: [{
          name: "invoke_agent",
          args: { agent_name: "doc-checker", prompt: "Check" },
        }],
      },
    },
    { reply: { text: "No broken links." } },
    { expect: { last_tool_result_contains: "No broken links." }, reply: { text: "checked" } },
    { reply: { text: "qwen" } },
    { reply: { text: "opencode" } },
  ]);
  const home = await dirs.add(fakeHome(
    fake.baseUrl,
    "chat",
    trustedProject(repo),
  ));
  for (const harness of ["gemini-cli", "qwen-code", "opencode"]) {
    const result = await interpreter(["exec", "--harness", harness, "go"], { cwd: repo, home });
    assert.equal(result.code, 0, result.stderr);
  }
  assert.deepEqual(fake.failures, []);
  const body = (i: number) => fake.requests[i].body as ChatBody;
  const system = (i: number) => JSON.stringify(body(i).messages.filter((m) => m.role === "system"));
  assert.match(
    system(0),
    /<name>generalist<\/name>[^<]*<description>[^<]*<\/description>\\n {2}<\/subagent>\\n {2}<subagent>\\n {4}<name>tester<\/name>/,
  );
  assert.match(system(0), /<name>doc-checker<\/name>\\n {4}<description>Checks Markdown docs/);
  const sub = body(1);
  assert.deepEqual(sub.tools?.map((t) => t.function.name).sort(), ["grep_search", "read_file"]);
  assert.match(system(1), /Find broken relative links/);
  const describe = (i: number, tool: string) =>
    body(i).tools?.find((t) => t.function.name === tool)?.function.description ?? "";
  assert.match(
    describe(3, "agent"),
    /- Explore: [^\n]*\n- tester: Runs the test suite [^\n]*\(tools: read_file, run_shell_command[^)]*\)/,
  );
  const task = describe(4, "task");
  assert.match(
    task,
    /- docs-writer: Writes and updates the project's documentation\. \(tools: All tools except bash\)/,
  );
});
