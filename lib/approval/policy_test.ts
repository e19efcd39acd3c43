import assert from "node:assert/strict";
import { approvalDecision, type ApprovalPolicy, type SandboxFacts } from "./policy.ts";

const WRITE: SandboxFacts = { mode: "workspace-write", enforced: true };
const READ_ONLY: SandboxFacts = { mode: "read-only", enforced: true };
const FULL: SandboxFacts = { mode: "danger-full-access", enforced: false };
const BROKEN: SandboxFacts = {
  mode: "workspace-write",
  enforced: false,
  problem: { message: "Command sandbox unavailable: bubblewrap is not installed", hint: "Install" },
};

function shell(policy: ApprovalPolicy, sandbox: SandboxFacts, input: Record<string, unknown>) {
  const d = approvalDecision(policy, { capability: "shell.run", mutates: true, input, sandbox });
  return d.decision === "deny" ? "deny" : `${d.decision}${d.unsandboxed ? "+unsandboxed" : ""}`;
}

Deno.test("approvalDecision() decides shell commands by policy and sandbox", () => {
  const rows: [ApprovalPolicy, SandboxFacts, Record<string, unknown>, string][] = [
    ["untrusted", WRITE, { command: "ls -la" }, "allow"],
    ["untrusted", WRITE, { command: "ls && rm -rf x" }, "ask"],
    ["untrusted", WRITE, { command: "pwd; cat a | wc -l" }, "allow"],
    ["untrusted", WRITE, { command: "git status" }, "ask"],
    ["untrusted", FULL, { command: "ls" }, "allow"],
    ["untrusted", FULL, { command: "ls", shell: "zsh", login: true }, "allow"],
    ["untrusted", FULL, { command: "ls", shell: "tools/evil" }, "ask+unsandboxed"],
    ["untrusted", FULL, { command: "ls", shell: "/bin/bash" }, "ask+unsandboxed"],
    ["untrusted", FULL, { command: "ls", cwd: "sub" }, "allow"],
    ["on-request", BROKEN, { command: "ls", shell: "evil" }, "ask+unsandboxed"],
    ["untrusted", WRITE, { command: "echo hi > f" }, "ask"],
    ["untrusted", FULL, { command: "npm test" }, "ask+unsandboxed"],
    ["on-request", WRITE, { command: "npm test" }, "allow"],
    [
      "on-request",
      WRITE,
      { command: "npm i", sandbox_permissions: "require_escalated" },
      "ask+unsandboxed",
    ],
    ["on-request", WRITE, { command: "ls", escalated: true }, "ask+unsandboxed"],
    ["on-request", FULL, { command: "npm i", escalated: true }, "allow+unsandboxed"],
    ["on-failure", WRITE, { command: "npm test" }, "allow"],
    ["never", WRITE, { command: "npm test" }, "allow"],
    ["never", WRITE, { command: "npm i", escalated: true }, "deny"],
    ["never", FULL, { command: "rm -rf build" }, "allow+unsandboxed"],
    ["on-request", BROKEN, { command: "npm test" }, "ask+unsandboxed"],
    ["on-request", BROKEN, { command: "ls" }, "allow+unsandboxed"],
    ["never", BROKEN, { command: "npm test" }, "deny"],
    ["on-request", READ_ONLY, { command: "pytest" }, "allow"],
  ];
  for (const [policy, sandbox, input, want] of rows) {
    assert.equal(shell(policy, sandbox, input), want, `${policy} ${sandbox.mode} ${input.command}`);
  }
});

Deno.test("approvalDecision() refuses file changes in read-only and asks under untrusted", () => {
  const edit = (policy: ApprovalPolicy, sandbox: SandboxFacts, mutates = true) =>
    approvalDecision(policy, { capability: "fs.edit", mutates, input: {}, sandbox }).decision;
  assert.equal(edit("on-request", READ_ONLY), "deny");
  assert.equal(edit("never", READ_ONLY), "deny");
  assert.equal(edit("on-request", READ_ONLY, false), "allow");
  assert.equal(edit("untrusted", WRITE), "ask");
  assert.equal(edit("on-request", WRITE), "allow");
  assert.equal(edit("never", FULL), "allow");
  const denied = approvalDecision("on-request", {
    capability: "fs.apply_patch",
    mutates: true,
    input: {},
    sandbox: READ_ONLY,
  });
  assert.ok(denied.decision === "deny");
  assert.match(denied.reason, /read-only: fs\.apply_patch cannot change files/);
  assert.match(denied.hint ?? "", /files cannot be changed here/);
});

Deno.test("approvalDecision() treats a background command like a foreground one", () => {
  const sandbox = { mode: "workspace-write" as const, enforced: true };
  const req = (capability: string) => ({
    capability,
    mutates: true,
    input: { command: "rm -rf build" },
    sandbox,
  });
  assert.deepEqual(
    approvalDecision("untrusted", req("shell.start")),
    approvalDecision("untrusted", req("shell.run")),
  );
  assert.equal(approvalDecision("untrusted", req("shell.start")).decision, "ask");
});

Deno.test("approvalDecision() knows no command safe when PATH would search the working folder", () => {
  const decide = (PATH: string | undefined) => {
    const env: Record<string, string> = PATH === undefined ? {} : { PATH };
    const input = { command: "ls" };
    return approvalDecision("untrusted", {
      capability: "shell.run",
      mutates: true,
      input,
      sandbox: FULL,
      env,
    })
      .decision;
  };
  assert.equal(decide("/usr/local/bin:/usr/bin:/bin"), "allow");
  for (
    const path of ["/usr/bin:.", ".:/usr/bin", "/usr/bin::/bin", "bin:/usr/bin", "", undefined]
  ) {
    assert.equal(decide(path), "ask", `PATH=${path}`);
  }
});
