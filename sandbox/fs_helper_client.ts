/**
 * Starts the file-tool helper (`fs_helper_main.ts`) as one long-lived process per session and
 * talks to it as a `FileSystem` (reference/sandbox.md §0 item 2). The process runs with
 * `--allow-write` limited to the writable roots and `--deny-write` on the protected paths; given a
 * bwrap program it also runs inside the same bubblewrap recipe as commands, so a symlink that
 * points out of the workspace hits a read-only mount in the kernel (§1.3, §1.8).
 */
import { fileURLToPath } from "node:url";
import { isAbsolute, join, relative } from "node:path";
import { bwrapArgs, protectedPathsUnder, type SandboxPolicy } from "./bwrap_args.ts";
import { bundledProgram } from "./bundled_program.ts";
import {
  FsRefusedError,
  inProcessFs,
  type ReadRange,
  type RestoringFileSystem,
  type WriteOptions,
} from "./file_system.ts";
import {
  errorFromWire,
  splitLines,
  statFromWire,
  type WireResponse,
  type WireStat,
} from "./_fs_wire.ts";

/** Options of `startFsHelper()`. */
export interface FsHelperOptions {
  policy: SandboxPolicy;
  /** The deno program; default `Deno.execPath()`. */
  denoPath?: string;
  /** The bwrap program. Without it only Deno's permission checks confine writes. */
  bwrap?: string;
  /** False for bubblewrap older than 0.8.0, which lacks `--disable-userns`. */
  disableUserns?: boolean;
  /**
   * Grant Deno's writes unscoped (the protected paths still denied), as `symlink` needs: only
   * with `bwrap`, whose mounts then confine the writes to the writable roots by themselves.
   */
  symlinks?: boolean;
}

/** A running helper; dispose it to end the process. */
export type FsHelper = RestoringFileSystem & AsyncDisposable & { readonly pid: number };

const HELPER_URL = new URL("./fs_helper_main.ts", import.meta.url);
const STDERR_KEEP = 4000;

/** Paths Deno must refuse to write: every protected name under every root, plus real paths. */
export function deniedWritePaths(policy: SandboxPolicy, existingProtected: string[]): string[] {
  const named = policy.writableRoots.flatMap((root) =>
    policy.protectedNames.map((name) => join(root, name))
  );
  return [...new Set([...named, ...existingProtected])];
}

/** The argument `main.ts` answers by serving as the helper (see `FS_HELPER_ARG` there). */
const COMPILED_HELPER_ARG = "__fs_helper";

/**
 * Whether this process is a `deno compile` binary rather than `deno` itself. Such a binary
 * cannot run the helper script, so it runs itself with `COMPILED_HELPER_ARG`. Its permission
 * flags are baked in and cannot be narrowed, so there only the kernel layer (bwrap) confines the
 * helper.
 */
export function isCompiledBinary(execPath: string): boolean {
  const name = execPath.split(/[\\/]/).pop() ?? "";
  return !/^deno(\.exe)?$/i.test(name);
}

function helperScript(): string {
  const bundled = bundledProgram("sandbox/fs_helper_main.ts");
  if (bundled !== undefined) return bundled;
  if (HELPER_URL.protocol !== "file:") {
    throw new Error(`Cannot start the file helper from "${HELPER_URL.href}": not a local file`);
  }
  return fileURLToPath(HELPER_URL);
}

/** The `deno` argv that runs the helper program with the policy's permissions. */
export function helperDenoArgs(
  policy: SandboxPolicy,
  opts: { helperPath: string; existingProtected: string[]; symlinks?: boolean },
): string[] {
  const roots = policy.mode === "workspace-write" ? policy.writableRoots : [];
  const denied = roots.length ? deniedWritePaths(policy, opts.existingProtected) : [];
  const withComma = [...roots, ...denied].find((p) => p.includes(","));
  if (withComma !== undefined) {
    throw new RangeError(`Cannot sandbox file tools for "${withComma}": the path has a comma`);
  }
  return [
    "run",
    "--quiet",
    "--no-config",
    "--no-lock",
    "--no-prompt",
    "--allow-read",
    ...(roots.length ? [opts.symlinks ? "--allow-write" : `--allow-write=${roots.join(",")}`] : []),
    ...(denied.length ? [`--deny-write=${denied.join(",")}`] : []),
    opts.helperPath,
  ];
}

/**
 * Starts the helper and waits for its first answer. Rejects with the helper's stderr when it
 * cannot start (bwrap refused, deno missing).
 */
export async function startFsHelper(opts: FsHelperOptions): Promise<FsHelper> {
  const policy = opts.policy;
  if (opts.symlinks && opts.bwrap === undefined) {
    throw new TypeError("A file helper that makes symlinks must run under bwrap");
  }
  const roots = policy.mode === "workspace-write" ? policy.writableRoots : [];
  const existingProtected = await protectedPathsUnder(roots, policy.protectedNames);
  const execPath = opts.denoPath ?? Deno.execPath();
  const deno = isCompiledBinary(execPath) ? [execPath, COMPILED_HELPER_ARG] : [
    execPath,
    ...helperDenoArgs(policy, {
      helperPath: helperScript(),
      existingProtected,
      symlinks: opts.symlinks,
    }),
  ];
  const [program, ...args] = opts.bwrap === undefined ? deno : [
    opts.bwrap,
    // Without a private /tmp: the helper lives all session and must read the host's /tmp; writes
    // there are refused by the read-only root and Deno's grant anyway.
    ...bwrapArgs({ ...policy, networkAccess: false, privateTmp: false }, {
      command: deno,
      cwd: "/",
      existingProtectedPaths: existingProtected,
      disableUserns: opts.disableUserns,
    }),
  ];
  const child = new Deno.Command(program, {
    args,
    cwd: "/",
    clearEnv: true,
    env: helperEnv(),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const helper = new HelperProcess(child, new Refusals(policy, existingProtected));
  try {
    await helper.call("ping", []);
  } catch (err) {
    await helper[Symbol.asyncDispose]();
    throw err;
  }
  return helper.fileSystem();
}

/** HOME and the Deno cache location, so deno finds its cache; no secrets reach the helper. */
function helperEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" };
  for (const key of ["HOME", "DENO_DIR", "XDG_CACHE_HOME"]) {
    const value = Deno.env.get(key);
    if (value !== undefined) env[key] = value;
  }
  return env;
}

interface Pending {
  resolve(result: unknown): void;
  reject(err: Error): void;
}

/** The process, its pending requests by id, and the reader of its answers. */
class HelperProcess {
  #child: Deno.ChildProcess;
  #refusals: Refusals;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #pending = new Map<number, Pending>();
  #nextId = 0;
  #closed: Error | undefined;
  #stderr = "";
  #done: Promise<unknown>;

  constructor(child: Deno.ChildProcess, refusals: Refusals) {
    this.#child = child;
    this.#refusals = refusals;
    this.#writer = child.stdin.getWriter();
    this.#done = Promise.all([this.#readAnswers(), this.#readStderr()]);
  }

  /** Sends one request; resolves with its result or rejects with the revived error. */
  call(op: string, args: unknown[]): Promise<unknown> {
    if (this.#closed) return Promise.reject(this.#closed);
    const id = ++this.#nextId;
    const line = new TextEncoder().encode(JSON.stringify({ id, op, args }) + "\n");
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#writer.write(line).catch(() => {});
    });
  }

  /** Like `call`, for an operation that writes: refusals become `FsRefusedError`. */
  async write(op: string, args: unknown[], paths: string[]): Promise<void> {
    try {
      await this.call(op, args);
    } catch (err) {
      throw this.#refusals.explain(err, paths);
    }
  }

  fileSystem(): FsHelper {
    const call = this.call.bind(this);
    const write = this.write.bind(this);
    return {
      pid: this.#child.pid,
      readFile: async (path: string, range?: ReadRange) =>
        Uint8Array.fromBase64(await call("readFile", [path, range]) as string),
      stat: async (path: string) => statFromWire(await call("stat", [path]) as WireStat),
      lstat: async (path: string) => statFromWire(await call("lstat", [path]) as WireStat),
      readDir: async (path: string) => await call("readDir", [path]) as never,
      mtimes: async (paths: string[]) => await call("mtimes", [paths]) as (number | null)[],
      writeFileAtomic: (path: string, data: Uint8Array, opts?: WriteOptions) =>
        write("writeFileAtomic", [path, data.toBase64(), opts], [
          path,
          ...(opts?.tempDir === undefined ? [] : [opts.tempDir]),
        ]),
      mkdirp: (path: string) => write("mkdirp", [path], [path]),
      remove: (path: string) => write("remove", [path], [path]),
      rename: (from: string, to: string) => write("rename", [from, to], [from, to]),
      realPath: async (path: string) => await call("realPath", [path]) as string,
      symlink: (target: string, path: string) => write("symlink", [target, path], [path]),
      [Symbol.asyncDispose]: () => this[Symbol.asyncDispose](),
    };
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#close(new Error("The file helper was stopped"));
    await this.#writer.close().catch(() => {});
    const kill = setTimeout(() => {
      try {
        this.#child.kill("SIGKILL");
      } catch {
        // It has exited in the meantime.
      }
    }, 2000);
    await this.#child.status;
    clearTimeout(kill);
    await this.#done;
  }

  async #readAnswers(): Promise<void> {
    for await (const line of splitLines(this.#child.stdout)) {
      const res = JSON.parse(line) as WireResponse;
      const pending = this.#pending.get(res.id);
      this.#pending.delete(res.id);
      if (res.ok) pending?.resolve(res.result);
      else pending?.reject(errorFromWire(res.error));
    }
    const status = await this.#child.status;
    const stderr = this.#stderr.trim();
    this.#close(
      new Error(
        `The file helper exited with code ${status.code}${stderr ? `: ${stderr}` : ""}`,
      ),
    );
  }

  async #readStderr(): Promise<void> {
    for await (const text of this.#child.stderr.pipeThrough(new TextDecoderStream())) {
      this.#stderr = (this.#stderr + text).slice(-STDERR_KEEP);
    }
  }

  #close(reason: Error): void {
    this.#closed ??= reason;
    for (const pending of this.#pending.values()) pending.reject(this.#closed);
    this.#pending.clear();
  }
}

/** Turns a refused write (Deno's NotCapable, the kernel's EROFS) into an `FsRefusedError`. */
class Refusals {
  #policy: SandboxPolicy;
  #protected: string[];

  constructor(policy: SandboxPolicy, existingProtected: string[]) {
    this.#policy = policy;
    this.#protected = deniedWritePaths(policy, existingProtected);
  }

  explain(err: unknown, paths: string[]): unknown {
    const code = (err as { code?: unknown }).code;
    if (!(err instanceof Deno.errors.NotCapable) && code !== "EROFS") return err;
    const roots = this.#policy.mode === "workspace-write" ? this.#policy.writableRoots : [];
    const path = paths.find((p) => !roots.some((r) => inside(p, r))) ??
      paths.find((p) => this.#protected.some((d) => inside(p, d))) ?? paths[0];
    const names = this.#policy.protectedNames.join(", ");
    let why: string;
    let hint: string;
    if (roots.length === 0) {
      why = "the sandbox is read-only";
      hint = "Ask the user to allow writes (--sandbox workspace-write) or make the change";
    } else if (!roots.some((r) => inside(path, r))) {
      why = "it is outside the writable roots";
      hint = `Write inside ${roots.map((r) => `"${r}"`).join(", ")} instead, or ask the user ` +
        "to make the change";
    } else if (this.#protected.some((d) => inside(path, d))) {
      why = `it is a protected path (${names} stay read-only)`;
      hint = "Ask the user to make this change";
    } else {
      why = "a symlink on the way resolves outside the writable roots or into a protected path";
      hint = "Write to a path inside the workspace that is not a symlink to elsewhere, or ask " +
        "the user to make the change";
    }
    return new FsRefusedError(`Write to "${path}" was refused by the sandbox: ${why}`, {
      path,
      hint,
      cause: err,
    });
  }
}

function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel));
}

/** The warning shown when file tools run without an OS sandbox. */
export function fsSandboxWarning(): string {
  return "File tools run without an OS sandbox: symlink escapes are not blocked";
}

/** What `fileSystemFor()` returns: the file system for `ToolContext.fs`, and a warning to show. */
export interface SessionFileSystem {
  fs: RestoringFileSystem & AsyncDisposable;
  warning?: string;
}

/**
 * The file system for a session's file tools. `policy` undefined means danger-full-access: the
 * tools run in this process. Otherwise the helper runs under bwrap when `probeOk` (the result of
 * `probeBubblewrap()`) on Linux, and without it (Deno permission checks only) elsewhere; both
 * cases without bwrap come with `fsSandboxWarning()`. Rejects when the helper cannot start;
 * it needs a `deno` that runs scripts, which a `deno compile` binary is not.
 */
export async function fileSystemFor(
  policy: SandboxPolicy | undefined,
  opts: { probeOk: boolean; bwrap?: string; disableUserns?: boolean; denoPath?: string },
): Promise<SessionFileSystem> {
  if (policy === undefined) {
    return {
      fs: { ...inProcessFs, [Symbol.asyncDispose]: async () => {} },
      warning: fsSandboxWarning(),
    };
  }
  if (opts.probeOk && Deno.build.os === "linux") {
    const bwrap = opts.bwrap ?? await defaultBwrap();
    return { fs: await startFsHelper({ ...opts, policy, bwrap }) };
  }
  return {
    fs: await startFsHelper({ policy, denoPath: opts.denoPath }),
    warning: fsSandboxWarning(),
  };
}

/** The bwrap program: `/usr/bin/bwrap` when it is there, else `bwrap` from PATH. */
export async function defaultBwrap(): Promise<string> {
  const info = await Deno.stat("/usr/bin/bwrap").catch(() => undefined);
  return info?.isFile ? "/usr/bin/bwrap" : "bwrap";
}
