/**
 * The file-tool helper program: serves `FileSystem` operations over JSON lines on stdin/stdout
 * (see `_fs_wire.ts`) by calling `inProcessFs`, so that they run under this process's narrow
 * Deno permissions and, when started by `startFsHelper()` with bwrap, inside the OS sandbox.
 * Requests run concurrently; the program exits when stdin closes and the last answer is out.
 */
import { inProcessFs } from "./file_system.ts";
import {
  errorToWire,
  splitLines,
  statToWire,
  type WireRequest,
  type WireResponse,
} from "./_fs_wire.ts";

type Op = (args: unknown[]) => Promise<unknown>;

const fs = inProcessFs;
const str = (v: unknown) => v as string;
/** JSON turns an absent optional argument into null. */
const opt = <T>(v: unknown) => (v ?? undefined) as T | undefined;

const OPS: Record<string, Op> = {
  ping: () => Promise.resolve("pong"),
  readFile: async ([path, range]) => (await fs.readFile(str(path), opt(range))).toBase64(),
  stat: async ([path]) => statToWire(await fs.stat(str(path))),
  lstat: async ([path]) => statToWire(await fs.lstat(str(path))),
  readDir: ([path]) => fs.readDir(str(path)),
  mtimes: ([paths]) => fs.mtimes(paths as string[]),
  writeFileAtomic: ([path, base64, opts]) =>
    fs.writeFileAtomic(str(path), Uint8Array.fromBase64(str(base64)), opt(opts)),
  mkdirp: ([path]) => fs.mkdirp(str(path)),
  remove: ([path]) => fs.remove(str(path)),
  rename: ([from, to]) => fs.rename(str(from), str(to)),
  realPath: ([path]) => fs.realPath(str(path)),
  symlink: ([target, path]) => fs.symlink(str(target), str(path)),
};

async function answer(req: WireRequest): Promise<WireResponse> {
  try {
    const op = Object.hasOwn(OPS, req.op) ? OPS[req.op] : undefined;
    if (!op) throw new TypeError(`Unknown file helper operation "${req.op}"`);
    return { id: req.id, ok: true, result: (await op(req.args)) ?? null };
  } catch (err) {
    return { id: req.id, ok: false, error: errorToWire(err) };
  }
}

/** Serves requests from stdin until it closes. */
export async function serve(): Promise<void> {
  const out = Deno.stdout.writable.getWriter();
  const encoder = new TextEncoder();
  const inFlight = new Set<Promise<void>>();
  for await (const line of splitLines(Deno.stdin.readable)) {
    const req = JSON.parse(line) as WireRequest;
    const done: Promise<void> = answer(req)
      .then((res) => out.write(encoder.encode(JSON.stringify(res) + "\n")))
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  }
  await Promise.all(inFlight);
  await out.close();
}

if (import.meta.main) await serve();
