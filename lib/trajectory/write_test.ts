import assert from "node:assert/strict";
import { join } from "node:path";
import { UserError } from "../errors.ts";
import { trajectoryOf } from "./atif.ts";
import { writeTrajectory } from "./write.ts";

const TRAJECTORY = trajectoryOf([], {
  sessionId: "s",
  agent: { name: "interpreter", version: "0" },
});

Deno.test("writeTrajectory writes the whole file into a new folder and leaves no temp file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "agent", "trajectory.json");
    await writeTrajectory(file, TRAJECTORY);
    await writeTrajectory(file, TRAJECTORY);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), TRAJECTORY);
    const names = [...Deno.readDirSync(join(dir, "agent"))].map((e) => e.name);
    assert.deepEqual(names, ["trajectory.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeTrajectory to an impossible path fails naming the file and the fix", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const blocker = join(dir, "file");
    await Deno.writeTextFile(blocker, "");
    await assert.rejects(writeTrajectory(join(blocker, "t.json"), TRAJECTORY), (error) => {
      assert.ok(error instanceof UserError);
      assert.match(error.message, /Cannot write the trajectory to ".*file\/t\.json"/);
      assert.match(error.hint ?? "", /--trajectory/);
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
