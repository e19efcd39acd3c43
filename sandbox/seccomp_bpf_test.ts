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
import { need } from "./_test_requires.ts";

const AUDIT = { x86_64: 0xc000003e, aarch64: 0xc00000b7 };
const NR = {
  x86_64: { socket: 41, socketpair: 53, openat: 257, connect: 42 },
  aarch64: { socket: 198, socketpair: 199, openat: 56, connect: 203 },
};
const EPERM = SECCOMP_RET.ERRNO | 1;
const AF_UNIX = 1;
const AF_INET = 2;
const SOCK = { STREAM: 1, DGRAM: 2, RAW: 3, SEQPACKET: 5, CLOEXEC: 0o2000000, NONBLOCK: 0o4000 };

interface SeccompData {
  nr: number;
  arch: number;
  arg0?: number;
  arg1?: number;
}

/** Runs a decoded program over one `struct seccomp_data`, like the kernel would. */
function run(prog: SockFilter[], data: SeccompData): number {
  const words: Record<number, number | undefined> = {
    0: data.nr,
    4: data.arch,
    16: data.arg0 ?? 0,
    24: data.arg1 ?? 0,
  };
  let acc = 0;
  for (let pc = 0; pc < prog.length; pc++) {
    const { code, jt, jf, k } = prog[pc];
    if (code === BPF.LD_ABS) {
      const word = words[k];
      assert.ok(word !== undefined, `unexpected load offset ${k}`);
      acc = word >>> 0;
    } else if (code === BPF.AND) acc = (acc & k) >>> 0;
    else if (code === BPF.JEQ) pc += acc === k ? jt : jf;
    else if (code === BPF.JGE) pc += acc >>> 0 >= k >>> 0 ? jt : jf;
    else if (code === BPF.RET) return k;
    else assert.fail(`unexpected opcode ${code}`);
  }
  assert.fail("program fell off the end");
}

for (const arch of ["x86_64", "aarch64"] as SeccompArch[]) {
  const prog = decodeFilter(seccompFilter(arch));
  const call = (nr: number, arg0?: number, arg1?: number) =>
    run(prog, { nr, arch: AUDIT[arch], arg0, arg1 });
  const pair = (domain: number, type: number) => call(NR[arch].socketpair, domain, type);

  Deno.test(`seccompFilter("${arch}") denies socket(AF_UNIX) and io_uring with EPERM`, () => {
    assert.equal(call(NR[arch].socket, AF_UNIX), EPERM);
    for (const nr of [425, 426, 427]) assert.equal(call(nr), EPERM);
  });

  Deno.test(`seccompFilter("${arch}") allows other sockets and other calls`, () => {
    assert.equal(call(NR[arch].socket, AF_INET), SECCOMP_RET.ALLOW);
    assert.equal(call(NR[arch].openat), SECCOMP_RET.ALLOW);
    assert.equal(call(NR[arch].connect), SECCOMP_RET.ALLOW);
  });

  Deno.test(`seccompFilter("${arch}") allows AF_UNIX stream and seqpacket pairs, flags or not`, () => {
    for (const type of [SOCK.STREAM, SOCK.SEQPACKET]) {
      for (const flags of [0, SOCK.CLOEXEC, SOCK.NONBLOCK, SOCK.CLOEXEC | SOCK.NONBLOCK]) {
        assert.equal(pair(AF_UNIX, type | flags), SECCOMP_RET.ALLOW, `type ${type | flags}`);
      }
    }
    assert.equal(pair(AF_INET, SOCK.DGRAM), SECCOMP_RET.ALLOW, "not AF_UNIX: the kernel refuses");
  });

  Deno.test(`seccompFilter("${arch}") denies AF_UNIX datagram and other socket pairs`, () => {
    for (const flags of [0, SOCK.CLOEXEC, SOCK.NONBLOCK, SOCK.CLOEXEC | SOCK.NONBLOCK]) {
      assert.equal(pair(AF_UNIX, SOCK.DGRAM | flags), EPERM, `type ${SOCK.DGRAM | flags}`);
    }
    assert.equal(pair(AF_UNIX, SOCK.RAW), EPERM);
    // A stray bit beside SOCK_STREAM is not a stream pair (the kernel would refuse it anyway).
    assert.equal(pair(AF_UNIX, SOCK.STREAM | 0x100), EPERM);
  });

  Deno.test(`seccompFilter("${arch}") kills a syscall from a foreign architecture`, () => {
    const other = arch === "x86_64" ? AUDIT.aarch64 : AUDIT.x86_64;
    assert.equal(run(prog, { nr: NR[arch].openat, arch: other }), SECCOMP_RET.KILL_PROCESS);
    assert.equal(run(prog, { nr: 102, arch: 0x40000003 }), SECCOMP_RET.KILL_PROCESS);
  });

  Deno.test(`seccompFilter("${arch}") denies socketpair(AF_UNIX) with blockSocketpair`, () => {
    const strict = decodeFilter(seccompFilter(arch, { blockSocketpair: true }));
    const nr = NR[arch].socketpair;
    const data = { nr, arch: AUDIT[arch], arg1: SOCK.STREAM };
    assert.equal(run(strict, { ...data, arg0: AF_UNIX }), EPERM);
    assert.equal(run(strict, { ...data, arg0: AF_INET }), SECCOMP_RET.ALLOW);
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
    18,
    0x3e,
    0,
    0,
    0xc0, // jeq AUDIT_ARCH_X86_64, else jump to the kill at the end
  ]);
  const prog = decodeFilter(bytes);
  assert.equal(prog.length, 21);
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

const [BWRAP, PYTHON] = [await need("bwrap"), await need("python3")];
const arch = hostSeccompArch();
const PROBE = [
  "import socket, sys",
  "try:",
  "    socket.socket(getattr(socket, sys.argv[1])).close()",
  "    print('ok')",
  "except OSError as e:",
  "    print('errno', e.errno)",
].join("\n");

/** Runs `python3 -c script ...args` under bwrap, with the filter on fd 3 when given. */
async function underBwrap(
  script: string,
  args: string[],
  filter: Uint8Array | undefined,
): Promise<string> {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "filter.bpf");
    await Deno.writeFile(path, filter ?? new Uint8Array());
    const bwrap = ["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-net"];
    if (filter) bwrap.push("--seccomp", "3");
    bwrap.push("--", "python3", "-c", script, ...args);
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

const why = BWRAP.note || PYTHON.note ||
  (arch === undefined ? " (SKIPPED: needs x86_64 or aarch64)" : "");
const skip = why !== "";

Deno.test({
  name: `seccompFilter() makes AF_UNIX sockets fail with EPERM under real bwrap${why}`,
  ignore: skip,
  async fn() {
    const filter = seccompFilter(arch!);
    assert.equal(await underBwrap(PROBE, ["AF_UNIX"], undefined), "ok");
    assert.equal(await underBwrap(PROBE, ["AF_UNIX"], filter), "errno 1");
    assert.equal(await underBwrap(PROBE, ["AF_INET"], filter), "ok");
  },
});

/** Binds a datagram socket at `path` and prints each datagram it gets, up to "sentinel". */
const DATAGRAM_LISTENER = `
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o777)
print("ready", flush=True)
while True:
    data = s.recv(100).decode(); print(data, flush=True)
    if data == "sentinel": break
`;

/** Makes a datagram socket pair (no socket() call) and sends `argv[2]` to the path `argv[1]`. */
const DATAGRAM_SENDER = `
import socket, sys
try:
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    a.sendto(sys.argv[2].encode(), sys.argv[1]); print("sent")
except OSError as e:
    print("errno", e.errno)
`;

/** A folder outside /tmp (a test with a private /tmp could not show an escape under /tmp). */
async function outsideTmp(): Promise<string> {
  const dir = await Deno.makeTempDir({ dir: Deno.env.get("HOME") ?? "/var/tmp", prefix: "oi_sc_" });
  return await Deno.realPath(dir);
}

Deno.test({
  name: `seccompFilter() keeps a datagram socket pair from reaching a host socket${why}`,
  ignore: skip,
  async fn() {
    const dir = await outsideTmp();
    const path = join(dir, "host.sock");
    const listener = new Deno.Command("python3", {
      args: ["-c", DATAGRAM_LISTENER, path],
      stdout: "piped",
    }).spawn();
    const lines = listener.stdout.pipeThrough(new TextDecoderStream()).getReader();
    try {
      assert.equal((await lines.read()).value?.trim(), "ready");
      const filter = seccompFilter(arch!);
      assert.equal(await underBwrap(DATAGRAM_SENDER, [path, "filtered"], filter), "errno 1");
      // Control: without the filter the same script reaches the host socket.
      assert.equal(await underBwrap(DATAGRAM_SENDER, [path, "unfiltered"], undefined), "sent");
      // Datagrams queue in order: a filtered one that got through would come first.
      const sentinel = "import socket, sys; socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)" +
        ".sendto(b'sentinel', sys.argv[1])";
      await new Deno.Command("python3", { args: ["-c", sentinel, path] }).output();
      let received = "";
      for (let chunk = await lines.read(); !chunk.done; chunk = await lines.read()) {
        received += chunk.value;
      }
      assert.deepEqual(received.trim().split("\n"), ["unfiltered", "sentinel"]);
      assert.equal((await listener.status).code, 0);
    } finally {
      await lines.cancel().catch(() => {});
      try {
        listener.kill();
      } catch {
        // It has exited already.
      }
      await listener.status;
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** Opens stream and seqpacket pairs (with flags) and writes through each. */
const STREAM_PAIRS = `
import socket
out = []
for kind in ("SOCK_STREAM", "SOCK_SEQPACKET"):
    for flags in (0, socket.SOCK_CLOEXEC | socket.SOCK_NONBLOCK):
        a, b = socket.socketpair(socket.AF_UNIX, getattr(socket, kind) | flags)
        a.send(b"x"); out.append(kind + ("+flags" if flags else "") + "=" + b.recv(1).decode())
print(" ".join(out))
`;

Deno.test({
  name: `seccompFilter() lets stream and seqpacket socket pairs work under real bwrap${why}`,
  ignore: skip,
  async fn() {
    assert.equal(
      await underBwrap(STREAM_PAIRS, [], seccompFilter(arch!)),
      "SOCK_STREAM=x SOCK_STREAM+flags=x SOCK_SEQPACKET=x SOCK_SEQPACKET+flags=x",
    );
  },
});
