import assert from "node:assert/strict";
import { join } from "node:path";
import { runNotify, type TurnNotice, turnPayload } from "./notify.ts";

const NOTICE: TurnNotice = {
  threadId: "0190-thread",
  turnId: "turn-1",
  cwd: "/work/project",
  client: "interpreter-repl",
  inputMessages: ["rename foo"],
  lastAssistantMessage: "Renamed.",
};

Deno.test("turnPayload() is Codex's agent-turn-complete JSON", () => {
  assert.equal(
    turnPayload(NOTICE),
    '{"type":"agent-turn-complete","thread-id":"0190-thread","turn-id":"turn-1",' +
      '"cwd":"/work/project","client":"interpreter-repl","input-messages":["rename foo"],' +
      '"last-assistant-message":"Renamed."}',
  );
  assert.match(
    turnPayload({ ...NOTICE, lastAssistantMessage: null }),
    /"last-assistant-message":null/,
  );
});

Deno.test("runNotify() runs the program with the payload last, in the cwd, with nothing on stdin", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi-notify-" }));
  try {
    const script = join(dir, "notify.sh");
    await Deno.writeTextFile(
      script,
      '#!/bin/sh\nprintf "%s\\n" "$#" "$1" "$(pwd)" "$(cat)" > out.tmp\nprintf "%s" "$2" >> out.tmp\n' +
        "mv out.tmp out\n",
    );
    await Deno.chmod(script, 0o755);
    const child = runNotify([script, "tag"], { ...NOTICE, cwd: dir }, {
      env: { PATH: "/usr/bin:/bin" },
    });
    child.ref(); // runNotify() lets the process end without it; the test waits
    assert.equal((await child.status).code, 0);
    const [count, first, cwd, stdin, payload] = (await Deno.readTextFile(join(dir, "out"))).split(
      "\n",
    );
    assert.deepEqual([count, first, cwd, stdin], ["2", "tag", dir, ""]);
    assert.deepEqual(JSON.parse(payload), JSON.parse(turnPayload({ ...NOTICE, cwd: dir })));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runNotify() names the program it cannot run and the fix", () => {
  assert.throws(
    () => runNotify(["/no/such/notifier"], NOTICE, { env: {} }),
    /^Error: Cannot run the notify program "\/no\/such\/notifier": no such program\. Fix "notify" in your config\.toml/,
  );
});
