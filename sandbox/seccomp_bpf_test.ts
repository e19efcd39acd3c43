import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BPF,
  decodeFilter,
  hostSeccompArch,
  SECCOMP_RET,
  type SeccompArch,
  seccompFilter,
  shellWithSeccompFd,
  type SockFilter,
} from "./seccomp_bpf.ts";

const AUDIT = { x86_64: 0xc000003e, aarch64: 0xc00000b7 };
const NR = {
  x86_64: { socket: 41, socketpair: 53, openat: 257, connect: 42 },
  aarch64: { socket: 198, socketpair: 199, openat: 56, connect: 203 },
};
const EPERM = SECCOMP_RET.ERRNO | 1;
const AF_UNIX = 1;
const AF_INET = 2;

/** Runs a decoded program over one `struct seccomp_data`, like the kernel would. */
function run(prog: SockFilter[], data: { nr: number; arch: number; arg0?: number }): number {
  let acc = 0;
  for (let pc = 0; pc < prog.length; pc++) {
    const { code, jt, jf, k } = prog[pc];
    if (code === BPF.LD_ABS) {
      acc = k === 0 ? data.nr : k === 4 ? data.arch : k === 16 ? data.arg0 ?? 0 : NaN;
      assert.ok(!Number.isNaN(acc), `unexpected load offset ${k}`);
    } else if (code === BPF.JEQ) pc += acc === k ? jt : jf;
    else if (code === BPF.JGE) pc += acc >>> 0 >= k >>> 0 ? jt : jf;
    else if (code === BPF.RET) return k;
    else assert.fail(`unexpected opcode ${code}`);
  }
  assert.fail("program fell off the end");
}

for (const arch of ["x86_64", "aarch64"] as SeccompArch[]) {
  const prog = decodeFilter(seccompFilter(arch));
  const call = (nr: number, arg0?: number) => run(prog, { nr, arch: AUDIT[arch], arg0 });

  Deno.test(`seccompFilter("${arch}") denies socket(AF_UNIX) and io_uring with EPERM`, () => {
    assert.equal(call(NR[arch].socket, AF_UNIX), EPERM);
    for (const nr of [425, 426, 427]) assert.equal(call(nr), EPERM);
  });

  Deno.test(`seccompFilter("${arch}") allows other sockets, socketpair and other calls`, () => {
    assert.equal(call(NR[arch].socket, AF_INET), SECCOMP_RET.ALLOW);
    assert.equal(call(NR[arch].socketpair, AF_UNIX), SECCOMP_RET.ALLOW);
    assert.equal(call(NR[arch].openat), SECCOMP_RET.ALLOW);
    assert.equal(call(NR[arch].connect), SECCOMP_RET.ALLOW);
  });

  Deno.test(`seccompFilter("${arch}") kills a syscall from a foreign architecture`, () => {
    const other = arch === "x86_64" ? AUDIT.aarch64 : AUDIT.x86_64;
    assert.equal(run(prog, { nr: NR[arch].openat, arch: other }), SECCOMP_RET.KILL_PROCESS);
    assert.equal(run(prog, { nr: 102, arch: 0x40000003 }), SECCOMP_RET.KILL_PROCESS);
  });

  Deno.test(`seccompFilter("${arch}") denies socketpair(AF_UNIX) with blockSocketpair`, () => {
    const strict = decodeFilter(seccompFilter(arch, { blockSocketpair: true }));
    const nr = NR[arch].socketpair;
    assert.equal(run(strict, { nr, arch: AUDIT[arch], arg0: AF_UNIX }), EPERM);
    assert.equal(run(strict, { nr, arch: AUDIT[arch], arg0: AF_INET }), SECCOMP_RET.ALLOW);
  });
}

Deno.test("seccompFilter() encodes 8-byte little-endian records starting with the arch check", () => {
  const bytes = seccompFilter("x86_64");
  assert.equal(bytes.byteLength % 8, 0);
  assert.deepEqual([...bytes.subarray(0, 16)], [
    0x20,
    0,
    0,
    0,
    4,
    0,
    0,
    0, // ld [arch]
    0x15,
    0,
    0,
    11,
    0x3e,
    0,
    0,
    0xc0, // jeq AUDIT_ARCH_X86_64, else jump to the kill at the end
  ]);
  const prog = decodeFilter(bytes);
  assert.equal(prog.length, 14);
  assert.deepEqual(prog.at(-1), { code: BPF.RET, jt: 0, jf: 0, k: SECCOMP_RET.KILL_PROCESS });
});

Deno.test("seccompFilter() fails x32 syscalls on x86_64 with EPERM", () => {
  const prog = decodeFilter(seccompFilter("x86_64"));
  const x32Socket = (1 << 30) | 41;
  assert.equal(run(prog, { nr: x32Socket, arch: AUDIT.x86_64, arg0: AF_INET }), EPERM);
});

Deno.test("shellWithSeccompFd() passes every argument through $@ without quoting", () => {
  assert.deepEqual(shellWithSeccompFd("/t/f.bpf", ["--ro-bind", "/", "/", "--", "echo", "a b"]), [
    "-c",
    'f="$1"; b="$2"; shift 2; exec "$b" "$@" 3<"$f"',
    "sh",
    "/t/f.bpf",
    "bwrap",
    "--ro-bind",
    "/",
    "/",
    "--",
    "echo",
    "a b",
  ]);
});

async function hasCommand(name: string): Promise<boolean> {
  try {
    return (await new Deno.Command(name, { args: ["--version"], stdout: "null", stderr: "null" })
      .output()).success;
  } catch {
    return false;
  }
}

const hasBwrap = await hasCommand("bwrap");
const hasPython = await hasCommand("python3");
const arch = hostSeccompArch();
const PROBE = [
  "import socket, sys",
  "try:",
  "    socket.socket(getattr(socket, sys.argv[1])).close()",
  "    print('ok')",
  "except OSError as e:",
  "    print('errno', e.errno)",
].join("\n");

/** Runs the socket probe under bwrap, with the filter on fd 3 when `filter` is given. */
async function socketProbe(family: string, filter: Uint8Array | undefined): Promise<string> {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "filter.bpf");
    await Deno.writeFile(path, filter ?? new Uint8Array());
    const bwrap = ["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-net"];
    if (filter) bwrap.push("--seccomp", "3");
    bwrap.push("--", "python3", "-c", PROBE, family);
    const out = await new Deno.Command("/bin/sh", {
      args: shellWithSeccompFd(path, bwrap),
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder();
    assert.equal(out.code, 0, text.decode(out.stderr));
    return text.decode(out.stdout).trim();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const skip = !hasBwrap || !hasPython || arch === undefined;
const why = skip ? " (SKIPPED: needs bwrap, python3 and x86_64/aarch64)" : "";

Deno.test({
  name: `seccompFilter() makes AF_UNIX sockets fail with EPERM under real bwrap${why}`,
  ignore: skip,
  async fn() {
    const filter = seccompFilter(arch!);
    assert.equal(await socketProbe("AF_UNIX", undefined), "ok");
    assert.equal(await socketProbe("AF_UNIX", filter), "errno 1");
    assert.equal(await socketProbe("AF_INET", filter), "ok");
  },
});
