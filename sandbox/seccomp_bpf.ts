/**
 * A classic BPF seccomp program for `bwrap --seccomp FD` (reference/sandbox.md §2.4).
 *
 * `--unshare-net` leaves Unix sockets reachable by path (docker.sock, ssh-agent, dbus), so the
 * program makes `socket(AF_UNIX, …)` fail with EPERM, and the io_uring calls too, since io_uring
 * performs I/O outside the syscall filter. Everything else is allowed.
 *
 * Architecture: a syscall made under any other audit arch (i386 `int 0x80` on x86_64, arm32 on
 * aarch64) kills the process. Those ABIs number syscalls differently and reach sockets through
 * `socketcall`, which this filter cannot inspect, so allowing them would be a bypass. x32 calls
 * (x86_64 arch with bit 30 set in the number) fail with EPERM for the same reason.
 *
 * `socketpair(AF_UNIX, …)` is allowed only for connected types, `SOCK_STREAM` and
 * `SOCK_SEQPACKET` (with the `SOCK_CLOEXEC`/`SOCK_NONBLOCK` flag bits masked off): Node/libuv child
 * stdio and Python multiprocessing use stream pairs, Chromium's IPC uses seqpacket pairs, and the
 * kernel gives either type no way out (`connect` fails with EISCONN, a stream send with an address
 * fails, a seqpacket send ignores it). A `SOCK_DGRAM` pair is refused: datagram sockets can
 * `sendto` or re-`connect` to any path, which reached journald, `/dev/log` and other host
 * sockets. `blockSocketpair` refuses every `AF_UNIX` pair.
 */

/** CPU architectures the generator knows. */
export type SeccompArch = "x86_64" | "aarch64";

/** Options of `seccompFilter()`. */
export interface SeccompFilterOptions {
  /** Make every `socketpair(AF_UNIX, …)` fail with EPERM, stream pairs included. */
  blockSocketpair?: boolean;
}

interface ArchInfo {
  audit: number;
  socket: number;
  socketpair: number;
  ioUring: readonly number[];
  x32Bit?: number;
}

const ARCHES: Record<SeccompArch, ArchInfo> = {
  x86_64: {
    audit: 0xc000003e,
    socket: 41,
    socketpair: 53,
    ioUring: [425, 426, 427],
    x32Bit: 1 << 30,
  },
  aarch64: { audit: 0xc00000b7, socket: 198, socketpair: 199, ioUring: [425, 426, 427] },
};

/**
 * BPF opcodes: BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_JEQ|BPF_K, BPF_JMP|BPF_JGE|BPF_K,
 * BPF_ALU|BPF_AND|BPF_K, BPF_RET|BPF_K.
 */
export const BPF = Object.freeze({ LD_ABS: 0x20, JEQ: 0x15, JGE: 0x35, AND: 0x54, RET: 0x06 });
/** seccomp return actions. */
export const SECCOMP_RET = Object.freeze({
  ALLOW: 0x7fff0000,
  ERRNO: 0x00050000,
  KILL_PROCESS: 0x80000000,
});
/** Offsets in `struct seccomp_data`: nr, arch, low words of args[0] and args[1]. */
const OFFSET = { nr: 0, arch: 4, arg0: 16, arg1: 24 } as const;
const EPERM = 1;
const AF_UNIX = 1;
/** Socket types (the same numbers on both architectures) and the flag bits `type` may carry. */
const SOCK = { STREAM: 1, SEQPACKET: 5, CLOEXEC: 0o2000000, NONBLOCK: 0o4000 } as const;

/** One decoded `struct sock_filter`. */
export interface SockFilter {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

type Target = number | "next" | Label;
type Label = "allow" | "deny" | "kill" | "domain" | "pair" | "pairType";
interface Op {
  code: number;
  k: number;
  jt?: Target;
  jf?: Target;
  label?: Label;
}

/** Builds the filter for `arch` as `struct sock_filter` records, 8 bytes each, little-endian. */
export function seccompFilter(arch: SeccompArch, opts: SeccompFilterOptions = {}): Uint8Array {
  return encode(resolve(program(ARCHES[arch], opts)));
}

/** The architecture of the running Deno process, or undefined when the generator lacks it. */
export function hostSeccompArch(): SeccompArch | undefined {
  const arch = Deno.build.arch;
  return arch === "x86_64" || arch === "aarch64" ? arch : undefined;
}

/** Decodes a filter back into instructions (for tests and debugging). */
export function decodeFilter(bytes: Uint8Array): SockFilter[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: SockFilter[] = [];
  for (let at = 0; at < bytes.byteLength; at += 8) {
    out.push({
      code: view.getUint16(at, true),
      jt: view.getUint8(at + 2),
      jf: view.getUint8(at + 3),
      k: view.getUint32(at + 4, true),
    });
  }
  return out;
}

/**
 * The argv for `/bin/sh` that opens `filterPath` on fd `fd` and execs `bwrap` with `bwrapArgv`.
 * `Deno.Command` connects only fds 0–2; the arguments travel in `"$@"`, so nothing is quoted.
 */
export function shellWithSeccompFd(
  filterPath: string,
  bwrapArgv: string[],
  opts: { bwrap?: string; fd?: number } = {},
): string[] {
  const fd = opts.fd ?? 3;
  const script = `f="$1"; b="$2"; shift 2; exec "$b" "$@" ${fd}<"$f"`;
  return ["-c", script, "sh", filterPath, opts.bwrap ?? "bwrap", ...bwrapArgv];
}

function program(a: ArchInfo, opts: SeccompFilterOptions): Op[] {
  const ops: Op[] = [
    { code: BPF.LD_ABS, k: OFFSET.arch },
    { code: BPF.JEQ, k: a.audit, jt: "next", jf: "kill" },
    { code: BPF.LD_ABS, k: OFFSET.nr },
  ];
  if (a.x32Bit !== undefined) ops.push({ code: BPF.JGE, k: a.x32Bit, jt: "deny", jf: "next" });
  for (const nr of a.ioUring) ops.push({ code: BPF.JEQ, k: nr, jt: "deny", jf: "next" });
  ops.push(
    { code: BPF.JEQ, k: a.socket, jt: "domain", jf: "next" },
    { code: BPF.JEQ, k: a.socketpair, jt: opts.blockSocketpair ? "domain" : "pair", jf: "next" },
    { code: BPF.RET, k: SECCOMP_RET.ALLOW },
    // socketpair: an AF_UNIX pair passes only when its type, flags masked off, is connected.
    { code: BPF.LD_ABS, k: OFFSET.arg0, label: "pair" },
    { code: BPF.JEQ, k: AF_UNIX, jt: "pairType", jf: "allow" },
    { code: BPF.LD_ABS, k: OFFSET.arg1, label: "pairType" },
    { code: BPF.AND, k: ~(SOCK.CLOEXEC | SOCK.NONBLOCK) >>> 0 },
    { code: BPF.JEQ, k: SOCK.STREAM, jt: "allow", jf: "next" },
    { code: BPF.JEQ, k: SOCK.SEQPACKET, jt: "allow", jf: "deny" },
    { code: BPF.LD_ABS, k: OFFSET.arg0, label: "domain" },
    { code: BPF.JEQ, k: AF_UNIX, jt: "deny", jf: "allow" },
    { code: BPF.RET, k: SECCOMP_RET.ALLOW, label: "allow" },
    { code: BPF.RET, k: SECCOMP_RET.ERRNO | EPERM, label: "deny" },
    { code: BPF.RET, k: SECCOMP_RET.KILL_PROCESS, label: "kill" },
  );
  return ops;
}

function resolve(ops: Op[]): SockFilter[] {
  const at = new Map<Label, number>();
  ops.forEach((op, i) => op.label && at.set(op.label, i));
  const offset = (i: number, target: Target | undefined): number => {
    if (target === undefined || target === "next") return 0;
    const to = typeof target === "number" ? target : at.get(target);
    if (to === undefined || to <= i || to - i - 1 > 255) {
      throw new RangeError(`Cannot jump from instruction ${i} to "${target}"`);
    }
    return to - i - 1;
  };
  return ops.map((op, i) => ({
    code: op.code,
    jt: offset(i, op.jt),
    jf: offset(i, op.jf),
    k: op.k,
  }));
}

function encode(filters: SockFilter[]): Uint8Array {
  const bytes = new Uint8Array(filters.length * 8);
  const view = new DataView(bytes.buffer);
  filters.forEach((f, i) => {
    view.setUint16(i * 8, f.code, true);
    view.setUint8(i * 8 + 2, f.jt);
    view.setUint8(i * 8 + 3, f.jf);
    view.setUint32(i * 8 + 4, f.k >>> 0, true);
  });
  return bytes;
}
