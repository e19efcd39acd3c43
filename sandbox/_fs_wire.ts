/**
 * The JSON-lines protocol between `fs_helper_client.ts` and `fs_helper_main.ts`.
 *
 * One request per line, `{ id, op, args }`; one response per line, in any order,
 * `{ id, ok: true, result }` or `{ id, ok: false, error: { name, message, code? } }`. Bytes travel
 * as base64 and times as milliseconds since the epoch. `op` is a `FileSystem` method or `ping`.
 */
import type { FileStat } from "./file_system.ts";

/** A request line. */
export interface WireRequest {
  id: number;
  op: string;
  args: unknown[];
}

/** An error as sent over the wire: the Deno error class name, the message and the OS code. */
export interface WireError {
  name: string;
  message: string;
  code?: string;
}

/** A response line. */
export type WireResponse =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: WireError };

/** A `FileStat` with its time as a number. */
export type WireStat = Omit<FileStat, "mtime"> & { mtime: number | null };

/** `FileStat` → wire. */
export function statToWire(stat: FileStat): WireStat {
  return { ...stat, mtime: stat.mtime?.getTime() ?? null };
}

/** Wire → `FileStat`. */
export function statFromWire(stat: WireStat): FileStat {
  return { ...stat, mtime: stat.mtime === null ? null : new Date(stat.mtime) };
}

/** Any thrown value → wire, keeping the Deno error class name and the OS error code. */
export function errorToWire(err: unknown): WireError {
  if (!(err instanceof Error)) return { name: "Error", message: String(err) };
  const code = (err as { code?: unknown }).code;
  return { name: err.name, message: err.message, ...(typeof code === "string" ? { code } : {}) };
}

const BUILT_IN: Record<string, new (message: string) => Error> = { TypeError, RangeError };

/** Wire → an instance of the same `Deno.errors` (or built-in) class when there is one. */
export function errorFromWire(wire: WireError): Error {
  const classes = Deno.errors as unknown as Record<string, new (message: string) => Error>;
  const Class = Object.hasOwn(classes, wire.name)
    ? classes[wire.name]
    : Object.hasOwn(BUILT_IN, wire.name)
    ? BUILT_IN[wire.name]
    : Error;
  const err = new Class(wire.message);
  if (wire.code !== undefined) Object.assign(err, { code: wire.code });
  return err;
}

/** Splits a byte stream into text lines without their `\n`; long lines cost linear time. */
export function splitLines(bytes: ReadableStream<Uint8Array>): ReadableStream<string> {
  let pieces: string[] = [];
  return bytes.pipeThrough(new TextDecoderStream()).pipeThrough(
    new TransformStream<string, string>({
      transform(chunk, controller) {
        let start = 0;
        for (let end = chunk.indexOf("\n"); end !== -1; end = chunk.indexOf("\n", start)) {
          pieces.push(chunk.slice(start, end));
          const line = pieces.join("");
          pieces = [];
          if (line !== "") controller.enqueue(line);
          start = end + 1;
        }
        if (start < chunk.length) pieces.push(chunk.slice(start));
      },
      flush(controller) {
        const line = pieces.join("");
        if (line !== "") controller.enqueue(line);
      },
    }),
  );
}
