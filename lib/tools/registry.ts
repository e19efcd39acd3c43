import type { Capability } from "./capability.ts";
import { applyPatch } from "./apply_patch.ts";
import { fsEdit } from "./fs_edit.ts";
import { fsGlob } from "./fs_glob.ts";
import { fsGrep } from "./fs_grep.ts";
import { fsRead } from "./fs_read.ts";
import { imageView, imageZoom } from "./image_view.ts";
import { fsWrite } from "./fs_write.ts";
import { shellRun } from "./shell_run.ts";
import { strReplaceEditor } from "./str_replace_editor.ts";
import { terminalKeys } from "./terminal_keys.ts";
import { toolCall, toolSearch } from "./tool_search.ts";
import { updatePlan } from "./update_plan.ts";
import { todoRead, todoWrite } from "./todo_write.ts";
import { webFetch } from "./web_fetch.ts";
import { webSearch } from "./web_search.ts";
import { reportFindings } from "./report_findings.ts";
import { recordArtifact } from "./record_artifact.ts";
import { skillList, skillLoad } from "./skills.ts";
import {
  agentClose,
  agentInterrupt,
  agentList,
  agentResume,
  agentRun,
  agentSend,
  agentSpawn,
  agentSwarm,
  agentWait,
  agentWorkflow,
} from "./agent_task.ts";
import { fsList } from "./fs_list.ts";
import { shellList, shellOutput, shellStart, shellStop } from "./shell_background.ts";
import { userAsk } from "./ask_user.ts";
import { fsNotebookEdit } from "./notebook_edit.ts";
import { planEnter, planExit } from "./plan_mode_tools.ts";
import { mcpListResources, mcpReadResource } from "./mcp_resources.ts";
import { clockSleep, codeExec, codeWait } from "./code_mode_tools.ts";
import { topicUpdate } from "./topic_update.ts";
import { shellMonitor } from "./shell_monitor.ts";
import { worktreeEnter, worktreeExit } from "./worktree_tools.ts";
import {
  goalCreate,
  goalGet,
  goalSetBudget,
  goalUpdate,
  scheduleCronCreate,
  scheduleCronDelete,
  scheduleCronList,
  scheduleWakeup,
} from "./goal_timer_tools.ts";
import { shellWriteStdin } from "./write_stdin.ts";

/** Every capability a harness can map tools onto. */
export const CAPABILITIES: readonly Capability[] = Object.freeze([
  shellRun as Capability,
  applyPatch as Capability,
  updatePlan as Capability,
  toolSearch as Capability,
  toolCall as Capability,
  fsRead as Capability,
  imageView as Capability,
  imageZoom as Capability,
  fsWrite as Capability,
  fsEdit as Capability,
  fsGlob as Capability,
  fsGrep as Capability,
  strReplaceEditor as Capability,
  terminalKeys as Capability,
  todoWrite as Capability,
  todoRead as Capability,
  webFetch as Capability,
  webSearch as Capability,
  reportFindings as Capability,
  recordArtifact as Capability,
  skillList as Capability,
  skillLoad as Capability,
  agentRun as Capability,
  agentSpawn as Capability,
  agentSend as Capability,
  agentInterrupt as Capability,
  agentWait as Capability,
  agentClose as Capability,
  agentResume as Capability,
  agentList as Capability,
  agentWorkflow as Capability,
  agentSwarm as Capability,
  fsList as Capability,
  shellStart as Capability,
  shellOutput as Capability,
  shellStop as Capability,
  shellList as Capability,
  userAsk as Capability,
  fsNotebookEdit as Capability,
  planEnter as Capability,
  planExit as Capability,
  mcpListResources as Capability,
  mcpReadResource as Capability,
  codeExec as Capability,
  codeWait as Capability,
  clockSleep as Capability,
  topicUpdate as Capability,
  worktreeEnter as Capability,
  worktreeExit as Capability,
  goalCreate as Capability,
  goalGet as Capability,
  goalUpdate as Capability,
  goalSetBudget as Capability,
  scheduleWakeup as Capability,
  scheduleCronCreate as Capability,
  scheduleCronDelete as Capability,
  scheduleCronList as Capability,
  shellMonitor as Capability,
  shellWriteStdin as Capability,
]);

/** The capability with this id, or undefined. */
export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}
