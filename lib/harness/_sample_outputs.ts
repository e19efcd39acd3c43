/**
 * Representative outputs per capability id, typed by each capability's own output type: the
 * source of the result-template placeholders (`placeholders.ts`) and of the example results
 * that `debug harness` and the generated harness docs render.
 */

import type {
  AgentPoolOutput,
  AgentRunOutput,
  AgentSwarmOutput,
  WorkflowOutput,
} from "../tools/agent_task.ts";
import type { ApplyPatchOutput } from "../tools/apply_patch.ts";
import type { UserAskOutput } from "../tools/ask_user.ts";
import type { FsEditOutput } from "../tools/fs_edit.ts";
import type { FsGlobOutput } from "../tools/fs_glob.ts";
import type { FsGrepOutput } from "../tools/fs_grep.ts";
import type { FsListOutput } from "../tools/fs_list.ts";
import type { FsReadOutput } from "../tools/fs_read.ts";
import { IMAGE_SAMPLE_OUTPUTS } from "./_sample_outputs_images.ts";
import type { FsWriteOutput } from "../tools/fs_write.ts";
import type { FsNotebookEditOutput } from "../tools/notebook_edit.ts";
import {
  listResourcesOutput,
  type McpListResourcesOutput,
  type McpReadResourceOutput,
} from "../tools/mcp_resources.ts";
import type {
  ShellListOutput,
  ShellOutputOutput,
  ShellStartOutput,
  ShellStopOutput,
} from "../tools/shell_background.ts";
import type { JobInfo } from "../tools/shell_jobs.ts";
import { WORKTREE_MONITOR_SAMPLES } from "./_sample_outputs_worktree.ts";
import { SESSION_RUN_SAMPLES, SESSION_SAMPLE_OUTPUTS } from "./_sample_outputs_sessions.ts";
import type { ShellRunOutput } from "../tools/shell_run.ts";
import type { SkillListOutput, SkillLoadOutput } from "../tools/skills.ts";
import type { StrReplaceEditorOutput } from "../tools/str_replace_editor.ts";
import type { TerminalKeysOutput } from "../tools/terminal_keys.ts";
import type { TodoListOutput } from "../tools/todo_write.ts";
import type { ToolSearchOutput } from "../tools/tool_search.ts";
import type { PlanEnterOutput, PlanExitOutput } from "../tools/plan_mode_tools.ts";
import type { UpdatePlanOutput } from "../tools/update_plan.ts";
import { SEARCH_SAMPLES } from "./_sample_outputs_search.ts";
import type { CellOutput, ClockSleepOutput } from "../tools/code_mode_tools.ts";
import type { TopicUpdateOutput } from "../tools/topic_update.ts";
import { GOAL_TIMER_SAMPLES } from "../tools/goal_timer_tools.ts";

const JOB: JobInfo = {
  id: "bash_1",
  command: "npm run dev",
  description: "dev server",
  cwd: "/work/app",
  pid: 4242,
  outputPath: "/tmp/interpreter/bash_1.log",
  status: "running",
  exitCode: null,
  signal: null,
  startedAt: 1767225600000,
};

const CELL_DONE: CellOutput = {
  completed: false,
  failed: true,
  terminated: false,
  runningCellId: null,
  wallTimeS: "0.2",
  items: ["3 files"],
  error: "Error: boom",
};

const CELL_RUNNING: CellOutput = {
  completed: false,
  failed: false,
  terminated: false,
  runningCellId: "1",
  wallTimeS: "10.0",
  items: ["building…"],
  error: null,
};

const TODOS: TodoListOutput["todos"] = [
  { content: "Fix the failing test", status: "completed", activeForm: "Fixing the failing test" },
  { content: "Run the suite", status: "in_progress", activeForm: "Running the suite" },
];

/**
 * The one table of result-template placeholders: per capability id, representative outputs
 * typed by the capability's own output type (the first one is what `debug harness` renders).
 * A template may use every field of these (by name or snake_case), `{if_<field>}` and
 * `{unless_<field>}`, and every derived placeholder of `_derived.ts` that resolves on one of them.
 * Optional fields are spelled out, so that each output's whole shape is here.
 */
export const SAMPLE_OUTPUTS: Readonly<Record<string, readonly object[]>> = {
  ...GOAL_TIMER_SAMPLES,
  ...IMAGE_SAMPLE_OUTPUTS,
  "code.exec": [CELL_DONE, CELL_RUNNING],
  "code.wait": [CELL_DONE, CELL_RUNNING],
  "clock.sleep": [{ wallTimeS: "0.5012" } satisfies ClockSleepOutput],
  "topic.update": [
    {
      title: "Fixing the streak bug",
      summary: "The cause is found: day numbers are compared, not dates.",
      strategicIntent: "Compare whole dates, then run the tests.",
      newTopic: true,
    } satisfies TopicUpdateOutput,
  ],
  "shell.run": [
    {
      command: "npm test",
      cwd: "/work/app",
      exitCode: 1,
      output: "1 failing\n  expected 2, got 3",
      durationMs: 1234,
      timedOut: false,
      timeoutMs: 120000,
      truncated: false,
    } satisfies ShellRunOutput,
    ...SESSION_RUN_SAMPLES,
  ],
  ...SESSION_SAMPLE_OUTPUTS,
  "fs.apply_patch": [
    {
      changes: [
        { path: "src/a.ts", kind: "update", diff: "-old\n+new", added: 1, removed: 1 },
        { path: "src/b.ts", kind: "move", movePath: "src/c.ts", diff: "", added: 0, removed: 0 },
      ],
    } satisfies ApplyPatchOutput,
  ],
  "plan.update": [
    {
      plan: [{ step: "Read the code", status: "completed" }, {
        step: "Fix the bug",
        status: "in_progress",
      }],
      explanation: "Starting on the fix",
    } satisfies UpdatePlanOutput,
  ],
  "plan.enter": [
    {
      instructions: "Plan mode is on: investigate read-only, then propose a plan.",
    } satisfies PlanEnterOutput,
  ],
  "plan.exit": [
    { plan: "1. Fix the parser\n2. Run the tests" } satisfies PlanExitOutput,
    { plan: null } satisfies PlanExitOutput,
  ],
  "tools.search": [
    {
      tools: [{ name: "WebFetch", description: "Fetch a URL", parameters: { type: "object" } }],
      count: 1,
      names: "WebFetch",
      output: "WebFetch: Fetch a URL",
      declarations: '{"name":"WebFetch"}',
      missing: null,
      loaded: ["WebFetch"],
    } satisfies ToolSearchOutput,
  ],
  "tools.call": [{ output: "fetched 12 lines" } satisfies { output: string }],
  "fs.read": [
    {
      path: "src/a.ts",
      absolutePath: "/work/app/src/a.ts",
      lines: ["import x from './x';", "export const y = x + 1;"],
      startLine: 1,
      totalLines: 40,
      endOfFile: false,
      truncated: false,
      unchanged: false,
      offset: 1,
      limit: 2,
    } satisfies FsReadOutput,
  ],
  "fs.write": [
    {
      path: "src/a.ts",
      absolutePath: "/work/app/src/a.ts",
      bytes: 120,
      size: 120,
      appended: false,
      created: true,
      diff: "+export const y = 1;",
    } satisfies FsWriteOutput,
  ],
  "fs.edit": [
    {
      path: "src/a.ts",
      absolutePath: "/work/app/src/a.ts",
      replacements: 1,
      editCount: 1,
      diff: "-const y = 1;\n+const y = 2;",
      fileText: "import x from './x';\nconst y = 2;\n",
      totalLines: 2,
    } satisfies FsEditOutput,
  ],
  "fs.glob": [
    {
      root: "/work/app",
      files: ["src/a.ts", "src/b.ts"],
      truncated: false,
    } satisfies FsGlobOutput,
  ],
  "fs.grep": [
    {
      root: "/work/app",
      mode: "content",
      files: ["src/a.ts"],
      lines: [{ path: "src/a.ts", line: 2, text: "export const y = x + 1;", match: true }],
      counts: [{ path: "src/a.ts", count: 1 }],
      truncated: false,
    } satisfies FsGrepOutput,
  ],
  "fs.str_replace_editor": [
    {
      command: "str_replace",
      path: "/work/app/src/a.ts",
      output: "The file /work/app/src/a.ts has been edited.",
    } satisfies StrReplaceEditorOutput,
  ],
  "terminal.keys": [
    {
      keystrokes: "ls\n",
      newOutput: "a.ts  b.ts",
      screen: "$ ls\na.ts  b.ts\n$",
      output: "a.ts  b.ts",
    } satisfies TerminalKeysOutput,
  ],
  "todo.write": [todoSample()],
  "todo.read": [todoSample()],
  ...SEARCH_SAMPLES,
  "skill.list": [
    {
      skills: [{
        name: "release",
        description: "Cut a release",
        path: "/work/app/.skills/release/SKILL.md",
        dir: "/work/app/.skills/release",
        scope: "repo",
      }],
      listing: "- release: Cut a release",
    } satisfies SkillListOutput,
  ],
  "skill.load": [
    {
      name: "release",
      description: "Cut a release",
      dir: "/work/app/.skills/release",
      path: "/work/app/.skills/release/SKILL.md",
      body: "Bump the version, tag, push.",
      args: "1.2.0",
    } satisfies SkillLoadOutput,
  ],
  ...agentSamples(),
  "fs.list": [
    {
      root: "/work/app",
      entries: [{ path: "src", kind: "dir", size: null }, {
        path: "README.md",
        kind: "file",
        size: 512,
      }],
      truncated: false,
    } satisfies FsListOutput,
  ],
  "shell.start": [
    {
      id: JOB.id,
      pid: JOB.pid,
      outputPath: JOB.outputPath,
      command: JOB.command,
      description: JOB.description,
      cwd: JOB.cwd,
    } satisfies ShellStartOutput,
  ],
  "shell.output": [
    {
      id: JOB.id,
      pid: JOB.pid,
      command: JOB.command,
      description: JOB.description,
      status: "completed",
      exitCode: 0,
      signal: null,
      output: "ready on :3000",
      truncated: false,
      retrieval: "complete",
      outputPath: JOB.outputPath,
    } satisfies ShellOutputOutput,
  ],
  "shell.stop": [
    {
      id: JOB.id,
      command: JOB.command,
      stopped: true,
      wasRunning: true,
      exitCode: null,
      signal: "SIGTERM",
    } satisfies ShellStopOutput,
  ],
  "shell.list": [{ jobs: [JOB], count: 1 } satisfies ShellListOutput],
  ...WORKTREE_MONITOR_SAMPLES,
  "user.ask": [
    {
      answered: true,
      answers: [{ id: "q1", question: "Which database?", header: "DB", answers: ["Postgres"] }],
    } satisfies UserAskOutput,
    {
      answered: false,
      message: "The user declined to answer",
      answers: [],
    } satisfies UserAskOutput,
  ],
  "fs.notebook_edit": [
    {
      path: "analysis.ipynb",
      cellId: "a1b2",
      cellIndex: 0,
      editMode: "replace",
      cellType: "code",
      newSource: "print(1)",
      cellCount: 4,
    } satisfies FsNotebookEditOutput,
  ],
  "mcp.list_resources": [mcpListSample("docs"), mcpListSample(undefined, [])],
  "mcp.read_resource": [
    {
      server: "docs",
      uri: "docs://guide",
      contents: [{ uri: "docs://guide", mimeType: "text/markdown", text: "# Guide" }],
      text: "# Guide",
      json: JSON.stringify({
        server: "docs",
        uri: "docs://guide",
        contents: [{ uri: "docs://guide", mimeType: "text/markdown", text: "# Guide" }],
      }),
    } satisfies McpReadResourceOutput,
  ],
};

function mcpListSample(
  server: string | undefined,
  resources = [{ uri: "docs://guide", name: "guide", mimeType: "text/markdown", server: "docs" }],
): McpListResourcesOutput {
  return listResourcesOutput(server, resources);
}

function todoSample(): TodoListOutput {
  return {
    todos: TODOS,
    oldTodos: TODOS.slice(0, 1),
    counts: { total: 2, pending: 0, inProgress: 1, completed: 1, cancelled: 0 },
    json: JSON.stringify(TODOS),
    checklist: "[x] Fix the failing test\n[~] Run the suite",
  };
}

/** Samples of the sub-agent capabilities (agent_task.ts). */
function agentSamples(): Record<string, object[]> {
  const run = { description: "find the bug", subagentType: "general-purpose" };
  const done = { finalText: "Found it.", toolCalls: 3, status: "completed", agentId: "" };
  const started = { finalText: "", toolCalls: 0, status: "running", agentId: "agent-1" };
  const pool: AgentPoolOutput = {
    ...{ agentId: "agent-1", name: "look", status: "completed", finalText: "Found it." },
    ...{ timedOut: false, text: "agent_id: agent-1", json: "{}" },
  };
  const ids = ["spawn", "send", "interrupt", "wait", "close", "resume", "list"];
  const swarm: AgentSwarmOutput = { text: "<agent_swarm_result>", completed: 1, agentIds: [] };
  const workflow: WorkflowOutput = {
    ...{ runId: "wf_1a2b3c", name: "fix", status: "completed", steps: 2, completedSteps: 2 },
    ...{ report: "Fixed.", text: "Workflow fix: completed." },
  };
  return {
    "agent.run": [{ ...run, ...done } satisfies AgentRunOutput, { ...run, ...started }],
    ...Object.fromEntries(ids.map((id) => [`agent.${id}`, [pool]])),
    "agent.swarm": [swarm],
    "agent.workflow": [workflow],
  };
}
