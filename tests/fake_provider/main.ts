/**
 * Serves a script from the command line, for benchmarks and manual runs:
 *
 *   deno run -A tests/fake_provider/main.ts --script tests/fixtures/scripts/read_file.jsonl
 *
 * The first line on stdout is the base URL (`http://127.0.0.1:PORT/v1`). The server runs until
 * SIGINT or SIGTERM; it then prints any invariant failures to stderr and exits 1 if there were any.
 */
import { parseArgs } from "node:util";
import { loadScript } from "./script.ts";
import { startFakeProvider } from "./server.ts";

const USAGE = "usage: main.ts --script FILE.jsonl [--port N] [--chunk-size N] [--delay-ms N] " +
  "[--allow-foreign-ids]\n";

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      script: { type: "string" },
      port: { type: "string" },
      "chunk-size": { type: "string" },
      "delay-ms": { type: "string" },
      "allow-foreign-ids": { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help || values.script === undefined) {
    await write(values.help ? Deno.stdout : Deno.stderr, USAGE);
    return values.help ? 0 : 2;
  }
  const fake = startFakeProvider(await loadScript(values.script), {
    port: optionalInt(values.port, "--port"),
    chunkSize: optionalInt(values["chunk-size"], "--chunk-size"),
    chunkDelayMs: optionalInt(values["delay-ms"], "--delay-ms"),
    allowForeignIds: values["allow-foreign-ids"],
  });
  // Listen before printing the URL: a caller may signal as soon as it reads it.
  const stopped = Promise.withResolvers<void>();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => stopped.resolve());
  }
  await write(Deno.stdout, `${fake.baseUrl}\n`);
  await stopped.promise;
  await fake.close();
  for (const failure of fake.failures) {
    await write(
      Deno.stderr,
      `request ${failure.request} ${failure.path}: ${failure.problems.join("; ")}\n`,
    );
  }
  return fake.failures.length > 0 ? 1 : 0;
}

function optionalInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    throw new TypeError(`Cannot use ${flag} "${value}": expected a non-negative integer`);
  }
  return n;
}

async function write(stream: { write(p: Uint8Array): Promise<number> }, text: string) {
  const bytes = new TextEncoder().encode(text);
  for (let done = 0; done < bytes.length;) done += await stream.write(bytes.subarray(done));
}

if (import.meta.main) {
  try {
    Deno.exit(await main());
  } catch (error) {
    await write(Deno.stderr, `error: ${(error as Error).message}\n`);
    Deno.exit(2);
  }
}
