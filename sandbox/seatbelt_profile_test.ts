import assert from "node:assert/strict";
import { SANDBOX_EXEC, seatbeltArgs, seatbeltProfile } from "./seatbelt_profile.ts";

const POLICY = {
  mode: "workspace-write" as const,
  writableRoots: ["/Users/a/ws", "/private/tmp"],
  protectedNames: [".git", ".openinterpreter"],
  networkAccess: false,
};

Deno.test("seatbeltProfile() allows writes only under the roots minus protected names", () => {
  const { profile, params } = seatbeltProfile(POLICY);
  assert.match(profile, /^\(version 1\)\n\(deny default\)/);
  assert.deepEqual(params, {
    WRITABLE_ROOT_0: "/Users/a/ws",
    WRITABLE_ROOT_0_EXCLUDED_0: "/Users/a/ws/.git",
    WRITABLE_ROOT_0_EXCLUDED_1: "/Users/a/ws/.openinterpreter",
    WRITABLE_ROOT_1: "/private/tmp",
    WRITABLE_ROOT_1_EXCLUDED_0: "/private/tmp/.git",
    WRITABLE_ROOT_1_EXCLUDED_1: "/private/tmp/.openinterpreter",
  });
  assert.match(
    profile,
    /\(require-all \(subpath \(param "WRITABLE_ROOT_0"\)\) \(require-not \(literal \(param "WRITABLE_ROOT_0_EXCLUDED_0"\)\)\) \(require-not \(subpath \(param "WRITABLE_ROOT_0_EXCLUDED_0"\)\)\)/,
  );
  assert.ok(!profile.includes("/Users/a/ws"), "paths travel only as -D parameters");
  assert.doesNotMatch(profile, /network/);
});

Deno.test("seatbeltProfile() has no write rule in read-only and network rules only when on", () => {
  const ro = seatbeltProfile({ ...POLICY, mode: "read-only" });
  assert.doesNotMatch(ro.profile, /allow file-write\*\n/);
  assert.deepEqual(ro.params, {});
  assert.match(
    seatbeltProfile({ ...POLICY, networkAccess: true }).profile,
    /allow network-outbound/,
  );
});

Deno.test("seatbeltArgs() passes the profile, one -D per parameter, then the command", () => {
  const args = seatbeltArgs({ ...POLICY, writableRoots: ["/w"], protectedNames: [] }, [
    "bash",
    "-c",
    "ls",
  ]);
  assert.equal(SANDBOX_EXEC, "/usr/bin/sandbox-exec");
  assert.equal(args[0], "-p");
  assert.deepEqual(args.slice(2), ["-DWRITABLE_ROOT_0=/w", "--", "bash", "-c", "ls"]);
});
