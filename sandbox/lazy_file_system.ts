import type { FileSystem } from "./file_system.ts";

/**
 * A file system that starts its backend on first use, so a session that never touches a file
 * never pays for the sandboxed helper's start. Disposing it stops the backend if it started.
 */
export function lazyFileSystem(
  start: () => Promise<FileSystem & AsyncDisposable>,
): FileSystem & AsyncDisposable {
  let backend: Promise<FileSystem & AsyncDisposable> | undefined;
  const ready = () => (backend ??= start());
  const forward = <K extends keyof FileSystem>(name: K) =>
    (async (...args: unknown[]) => {
      const fs = await ready();
      return (fs[name] as (...a: unknown[]) => unknown)(...args);
    }) as FileSystem[K];
  return {
    readFile: forward("readFile"),
    stat: forward("stat"),
    lstat: forward("lstat"),
    readDir: forward("readDir"),
    mtimes: forward("mtimes"),
    writeFileAtomic: forward("writeFileAtomic"),
    mkdirp: forward("mkdirp"),
    remove: forward("remove"),
    rename: forward("rename"),
    realPath: forward("realPath"),
    async [Symbol.asyncDispose]() {
      if (backend) await (await backend)[Symbol.asyncDispose]();
    },
  };
}
