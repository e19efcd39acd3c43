import assert from "node:assert/strict";
import {
  classifyProbeFailure,
  parseBwrapVersion,
  probeArgs,
  probeBubblewrap,
  type ProbeFailureKind,
} from "./probe.ts";
import { need } from "./_test_requires.ts";

/** Stderr lines recorded in reference/sandbox.md §2.8, with the kind each must map to. */
const RECORDED: [string, ProbeFailureKind][] = [
  [
    "bwrap: No permissions to create new namespace, likely because the kernel does not allow " +
    "non-privileged user namespaces. See <https://deb.li/bubblewrap> or <file:///usr/share/doc/" +
    "bubblewrap/README.Debian.gz>.",
    "userns_disabled",
  ],
  ["bwrap: No permissions to create a new namespace, likely because ...", "userns_disabled"],
  ["bwrap: setting up uid map: Permission denied", "userns_disabled"],
  [
    "bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces " +
    "exceeded (ENOSPC)",
    "userns_limit_zero",
  ],
  ["bwrap: Creating new namespace failed: Operation not permitted", "no_privilege"],
  ["bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted", "no_privilege"],
  ["bwrap: Can't mount proc on /newroot/proc: Operation not permitted", "no_privilege"],
  ["bwrap: something new and strange", "unknown"],
];

for (const [stderr, kind] of RECORDED) {
  Deno.test(`classifyProbeFailure() maps "${stderr.slice(0, 50)}" to ${kind}`, () => {
    const failure = classifyProbeFailure(stderr, 1);
    assert.equal(failure.kind, kind);
    assert.match(failure.message, /^Command sandbox unavailable: /);
    assert.match(failure.hint, /danger-full-access/);
  });
}

Deno.test("classifyProbeFailure() names the fix for each known cause", () => {
  assert.match(
    classifyProbeFailure("bwrap: No permissions to create new namespace", 1).hint,
    /kernel\.unprivileged_userns_clone=1/,
  );
  assert.match(
    classifyProbeFailure("max_*_namespaces exceeded (ENOSPC)", 1).hint,
    /user\.max_user_namespaces/,
  );
  assert.match(classifyProbeFailure("", null).hint, /apt-get install bubblewrap/);
});

Deno.test("classifyProbeFailure() reports a missing program and quotes unknown stderr", () => {
  assert.equal(classifyProbeFailure("", null).kind, "missing");
  assert.match(classifyProbeFailure("bwrap: odd\nmore", 1).message, /bwrap: odd$/);
  assert.match(classifyProbeFailure("", 5).message, /exit code 5$/);
});

Deno.test("parseBwrapVersion() and probeArgs() gate --disable-userns on 0.8", () => {
  assert.deepEqual(parseBwrapVersion("bubblewrap 0.8.0\n"), [0, 8, 0]);
  assert.deepEqual(parseBwrapVersion("bubblewrap 0.11"), [0, 11, 0]);
  assert.equal(parseBwrapVersion("nothing"), undefined);
  assert.ok(probeArgs(true).includes("--disable-userns"));
  assert.ok(!probeArgs(false).includes("--disable-userns"));
  assert.deepEqual(probeArgs(true).slice(-2), ["--", "/bin/true"]);
});

Deno.test("probeBubblewrap() reports kind missing for a bogus bwrap path", async () => {
  const result = await probeBubblewrap({ bwrap: "/nonexistent/bwrap" });
  assert.equal(result.ok, false);
  if (!result.ok) assert.equal(result.failure.kind, "missing");
});

async function hasBwrap(): Promise<boolean> {
  try {
    return (await new Deno.Command("bwrap", { args: ["--version"] }).output()).success;
  } catch {
    return false;
  }
}

/** Installed, working or not: these tests check what the probe says about it. */
const bwrapPresent = await hasBwrap();
const skipped = bwrapPresent ? "" : (await need("bwrap")).note;

Deno.test({
  name: `probeBubblewrap() succeeds on this machine${skipped}`,
  ignore: !bwrapPresent,
  async fn() {
    const result = await probeBubblewrap();
    assert.ok(result.ok, JSON.stringify(result));
    if (result.ok) assert.match(result.version, /^bubblewrap \d+\.\d+/);
  },
});

Deno.test({
  name: `classifyProbeFailure() recognises a real max_user_namespaces=0 failure${skipped}`,
  ignore: !bwrapPresent,
  async fn() {
    const probe = ["bwrap", ...probeArgs(true)].join(" ");
    const out = await new Deno.Command("unshare", {
      args: [
        "--user",
        "--map-root-user",
        "sh",
        "-c",
        `echo 0 > /proc/sys/user/max_user_namespaces && ${probe}`,
      ],
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.notEqual(out.code, 0);
    assert.equal(classifyProbeFailure(stderr, out.code).kind, "userns_limit_zero", stderr);
  },
});
