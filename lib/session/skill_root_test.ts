import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession } from "./open.ts";

/** The skill names a session in `ws/sub` finds, with `extraConfig` in its config. */
async function skillsFound(extraConfig: string): Promise<string[]> {
  await using fake = await startFakeProvider([]);
  await using ws = await sessionWorkspace(fake.baseUrl, extraConfig);
  const files = {
    ".agents/skills/top/SKILL.md": "---\nname: top\ndescription: At the repository root\n---\n",
    "sub/.hg": "",
  };
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(ws.cwd, path)), { recursive: true });
    await Deno.writeTextFile(join(ws.cwd, path), text);
  }
  await using session = await openSession(
    { cwd: join(ws.cwd, "sub"), harness: "claude-code", sandbox: "danger-full-access" },
    { onEvent: () => {} },
    { env: ws.env },
  );
  return (await session.skills()).map((s) => s.name).filter((name) => name === "top");
}

Deno.test("a session's skill discovery stops at the root project_root_markers name", async () => {
  assert.deepEqual(await skillsFound('project_root_markers = [".hg"]'), []);
  // The control: with the default marker (.git) the repository root's skill is found.
  assert.deepEqual(await skillsFound(""), ["top"]);
});
