import assert from "node:assert/strict";
import { CAPABILITIES, capabilityById } from "./registry.ts";

Deno.test("capabilityById() finds each registered capability and nothing else", () => {
  for (const cap of CAPABILITIES) assert.equal(capabilityById(cap.id), cap);
  assert.equal(capabilityById("no.such"), undefined);
});

Deno.test("CAPABILITIES has unique, dotted ids", () => {
  const ids = CAPABILITIES.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.match(id, /^[a-z]+\.[a-z_]+$/);
  assert.deepEqual([...ids].sort(), [
    "agent.close",
    "agent.interrupt",
    "agent.list",
    "agent.resume",
    "agent.run",
    "agent.send",
    "agent.spawn",
    "agent.swarm",
    "agent.wait",
    "agent.workflow",
    "artifact.record",
    "clock.sleep",
    "code.exec",
    "code.wait",
    "findings.report",
    "fs.apply_patch",
    "fs.edit",
    "fs.glob",
    "fs.grep",
    "fs.list",
    "fs.notebook_edit",
    "fs.read",
    "fs.str_replace_editor",
    "fs.write",
    "goal.create",
    "goal.get",
    "goal.set_budget",
    "goal.update",
    "image.view",
    "image.zoom",
    "mcp.list_resources",
    "mcp.read_resource",
    "plan.enter",
    "plan.exit",
    "plan.update",
    "schedule.cron_create",
    "schedule.cron_delete",
    "schedule.cron_list",
    "schedule.wakeup",
    "shell.list",
    "shell.monitor",
    "shell.output",
    "shell.run",
    "shell.start",
    "shell.stop",
    "shell.write_stdin",
    "skill.list",
    "skill.load",
    "terminal.keys",
    "todo.read",
    "todo.write",
    "tools.call",
    "tools.search",
    "topic.update",
    "user.ask",
    "web.fetch",
    "web.search",
    "worktree.enter",
    "worktree.exit",
  ]);
});
