import { type FileSystem, forwardingFileSystem } from "./file_system.ts";

/**
 * A file system that starts its backend on first use, so a session that never touches a file
 * never pays for the sandboxed helper's start. Disposing it stops the backend if it started.
 */
export function lazyFileSystem(
  start: () => Promise<FileSystem & AsyncDisposable>,
): FileSystem & AsyncDisposable {
  let backend: Promise<FileSystem & AsyncDisposable> | undefined;
  const ready = () => (backend ??= start());
  return {
    ...forwardingFileSystem(ready),
    async [Symbol.asyncDispose]() {
      if (backend) await (await backend)[Symbol.asyncDispose]();
    },
  };
}
