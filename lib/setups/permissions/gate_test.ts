import assert from "node:assert/strict";
import { join } from "node:path";
import { approvalHook } from "../../approval/hook.ts";
import { bwrapArgs } from "../../../sandbox/bwrap_args.ts";
import { seatbeltProfile } from "../../../sandbox/seatbelt_profile.ts";
import { permissionGate } from "./gate.ts";
import { allowRuleKey } from "./load.ts";
import { parseRule, type RuleList } from "./rules.ts";

function gateOf(cwd: string, lists: Partial<Record<RuleList, string[]>>) {
  const rules = Object.entries(lists).flatMap(([list, texts]) =>
    texts!.map((text) =>
      parseRule(text, { list: list as RuleList, source: "settings.json", scope: "user", root: cwd })
    )
  );
  return permissionGate({ rules, untrusted: [] }, {});
}

/** The session's approval check under `-a untrusted` in an enforced workspace-write sandbox. */
function untrustedCheck(sandboxEnforced = true) {
  return approvalHook({
    policy: "untrusted",
    sandbox: { mode: "workspace-write", enforced: sandboxEnforced },
    mutates: () => true,
  });
}

const call = { id: "c1", name: "Bash" };
const run = (command: string) => ({ capability: "shell.run", input: { command }, mutates: true });

Deno.test("PermissionGate.wrap() denies, asks and allows before the approval policy", async () => {
  const gate = gateOf("/repo", { deny: ["Bash(rm:*)"], ask: ["Bash(git push:*)"] });
  const denied: string[] = [];
  const check = gate.wrap(untrustedCheck(), {
    cwd: () => "/repo",
    turnAllow: ["Bash(make test)"],
    onDenied: (reason) => denied.push(reason),
  });
  const signal = new AbortController().signal;
  const rm = await check(call, run("rm -f habits.py"), signal);
  assert.equal(rm.allow, false);
  assert.match(denied[0], /denied by the rule "Bash\(rm:\*\)" in settings\.json/);
  const push = await check(call, run("git push"), signal);
  assert.equal(push.allow, false, "an ask no one can answer is refused");
  assert.deepEqual(await check(call, run("make test"), signal), {
    allow: true,
    unsandboxed: false,
  });
  assert.equal((await check(call, run("make all"), signal)).allow, false, "the policy asks");
});

Deno.test("an allow rule never lets a command leave the sandbox", async () => {
  const gate = gateOf("/repo", { allow: ["Bash(make:*)"] });
  const check = gate.wrap(untrustedCheck(false), { cwd: () => "/repo" });
  const verdict = await check(call, run("make"), new AbortController().signal);
  assert.equal(verdict.allow, false, "without a sandbox the question stays, and no one answers");
});

Deno.test("a bare deny hides the tool; a Read deny masks existing paths in bubblewrap", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.mkdir(join(dir, "secrets"));
    await Deno.writeTextFile(join(dir, ".env"), "K=1");
    const gate = gateOf(dir, {
      deny: ["WebFetch", "Read(./secrets/**)", "Read(.env)", "Read(gone)"],
    });
    assert.equal(gate.hidden("web.fetch"), true);
    assert.equal(gate.hidden("shell.run"), false);
    const masked = await gate.maskedPaths(dir);
    assert.deepEqual(masked, [
      { path: join(dir, "secrets"), folder: true },
      { path: join(dir, ".env"), folder: false },
    ]);
    const args = bwrapArgs(
      {
        mode: "read-only",
        writableRoots: [],
        protectedNames: [],
        networkAccess: false,
        privateTmp: true,
        masked,
      },
      { command: ["cat", ".env"], cwd: dir },
    ).join(" ");
    assert.match(args, new RegExp(`--tmpfs ${dir}/secrets --remount-ro ${dir}/secrets`));
    assert.match(args, new RegExp(`--ro-bind /dev/null ${dir}/\\.env`));
    const seatbelt = seatbeltProfile({
      mode: "read-only",
      writableRoots: [],
      protectedNames: [],
      networkAccess: false,
      masked,
    });
    assert.match(
      seatbelt.profile,
      /\(deny file-read\* file-write\* \(subpath \(param "MASKED_0"\)\)\)\n/,
    );
    assert.equal(seatbelt.params.MASKED_1, join(dir, ".env"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("PermissionGate.visibleSources() leaves out the MCP tools a bare deny names", async () => {
  const gate = gateOf("/repo", { deny: ["mcp__github__delete_repo"] });
  const tool = (name: string) => ({ name }) as never;
  const [github, other] = gate.visibleSources([
    { id: "github", tools: () => Promise.resolve([tool("delete_repo"), tool("list")]) },
    { id: "other", tools: () => Promise.resolve([tool("delete_repo")]) },
  ]);
  const signal = new AbortController().signal;
  assert.deepEqual((await github.tools(signal)).map((t) => t.name), ["list"]);
  assert.deepEqual((await other.tools(signal)).map((t) => t.name), ["delete_repo"]);
  gate.add(parseRule("mcp__other", { list: "deny", source: "x", scope: "user", root: "/" }));
  assert.deepEqual(await other.tools(signal), [], "a rule added later applies too");
});

Deno.test("PermissionGate.settleTrust() takes in the allow rules trusted since start", async () => {
  const rule = (text: string) =>
    parseRule(text, { list: "allow", source: "s.json", scope: "project", root: "/" });
  const gate = permissionGate({ rules: [], untrusted: [rule("Bash(make:*)"), rule("Read")] }, {});
  const key = await allowRuleKey({ text: "Read" });
  assert.deepEqual((await gate.settleTrust(new Set([key]))).map((r) => r.text), ["Bash(make:*)"]);
  assert.deepEqual(gate.rules().map((r) => r.text), ["Read"]);
  assert.deepEqual(await gate.settleTrust("all"), []);
  assert.equal(gate.rules().length, 2);
});
