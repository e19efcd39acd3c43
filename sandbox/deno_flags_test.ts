import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { DENO_PERMISSION_FLAGS } from "./deno_flags.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** The flags as scripts/interpreter reads them, with read_deno_flags from scripts/_deno.sh. */
async function bashFlags(): Promise<string[]> {
  const out = await new Deno.Command("bash", {
    args: [
      "-c",
      '. scripts/_deno.sh && read_deno_flags sandbox/deno_flags.json && printf "%s\\n" "${DENO_FLAGS[@]}"',
    ],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).split("\n").filter((line) => line !== "");
}

Deno.test("DENO_PERMISSION_FLAGS matches what the bash launcher reads from deno_flags.json", async () => {
  assert.deepEqual(await bashFlags(), [...DENO_PERMISSION_FLAGS]);
});

Deno.test("DENO_PERMISSION_FLAGS starts with --no-prompt", () => {
  assert.equal(DENO_PERMISSION_FLAGS[0], "--no-prompt");
});

Deno.test("deno_flags.json keeps one string per line so bash can read it", async () => {
  const text = await Deno.readTextFile(`${REPO}/sandbox/deno_flags.json`);
  const lines = text.trimEnd().split("\n");
  assert.equal(lines[0], "[");
  assert.equal(lines.at(-1), "]");
  assert.deepEqual(
    lines.slice(1, -1),
    DENO_PERMISSION_FLAGS.map((flag, i, all) =>
      `  ${JSON.stringify(flag)}${i < all.length - 1 ? "," : ""}`
    ),
  );
});

Deno.test("DENO_PERMISSION_FLAGS grants only what the agent needs", () => {
  for (const flag of DENO_PERMISSION_FLAGS) {
    assert.match(flag, /^--[a-z0-9-]+(=[^"\\\s]+)?$/, `unexpected flag ${flag}`);
  }
  for (const broad of ["-A", "--allow-all", "--allow-ffi", "--allow-import"]) {
    assert.ok(!DENO_PERMISSION_FLAGS.includes(broad), `${broad} must not be granted`);
  }
  assert.equal(new Set(DENO_PERMISSION_FLAGS).size, DENO_PERMISSION_FLAGS.length);
});

Deno.test("DENO_PERMISSION_FLAGS sets V8 heap limits in one --v8-flags entry", () => {
  const v8 = DENO_PERMISSION_FLAGS.filter((flag) => flag.startsWith("--v8-flags="));
  assert.equal(v8.length, 1, "deno keeps only the last --v8-flags");
  const limits = Object.fromEntries(
    v8[0].slice("--v8-flags=".length).split(",").map((f) => f.split("=") as [string, string]),
  );
  const oldSpace = Number(limits["--max-old-space-size"]);
  const semiSpace = Number(limits["--max-semi-space-size"]);
  assert.ok(oldSpace >= 512 && oldSpace <= 4096, `old space ${oldSpace} MiB`);
  assert.ok(semiSpace >= 1 && semiSpace <= 8, `semi-space ${semiSpace} MiB`);
});

Deno.test("the V8 heap limits reach a process started with DENO_PERMISSION_FLAGS", async () => {
  const v8 = DENO_PERMISSION_FLAGS.find((flag) => flag.startsWith("--v8-flags="))!;
  const oldSpace = Number(/--max-old-space-size=(\d+)/.exec(v8)![1]);
  const code = 'import v8 from "node:v8"; console.log(v8.getHeapStatistics().heap_size_limit)';
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", ...DENO_PERMISSION_FLAGS, code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const limitMib = Number(new TextDecoder().decode(out.stdout)) / 2 ** 20;
  assert.ok(limitMib >= oldSpace && limitMib < oldSpace + 64, `heap limit ${limitMib} MiB`);
});
