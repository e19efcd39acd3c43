/**
 * Test helper for the layout tests: the requests one prompt of a real session sends for a
 * harness, against the scripted provider, in a small git repository with an AGENTS.md.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openSession } from "../lib/session/open.ts";
import type { WireApi } from "../lib/providers/types.ts";
import { startFakeProvider } from "./fake_provider/server.ts";

type Json = Record<string, unknown>;

const GIT_ENV = {
  GIT_AUTHOR_NAME: "Ada",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_COMMITTER_NAME: "Ada",
  GIT_COMMITTER_EMAIL: "ada@example.com",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", { args, cwd, env: GIT_ENV, stderr: "piped" }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

export interface LayoutRun {
  harness: string;
  wire: WireApi;
  model?: string;
  /** The scripted replies, in order (see tests/fake_provider/script.ts). */
  replies: Json[];
  /** Extra environment, such as OPENINTERPRETER_TEST_TIME. */
  env?: Record<string, string>;
  /** Extra files in the workspace, by relative path. */
  files?: Record<string, string>;
  /** Extra config.toml lines. */
  config?: string;
  approval?: "never" | "on-request" | "untrusted" | "on-failure";
  prompt?: string;
}

/** The request bodies the session sent, and the workspace root (to read paths in them). */
export async function layoutRequests(run: LayoutRun): Promise<{ bodies: Json[]; cwd: string }> {
  await using fake = startFakeProvider(run.replies.map((reply) => ({ reply })));
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_layout_" }));
  try {
    const cwd = join(root, "ws");
    const home = join(root, "home");
    await Deno.mkdir(cwd, { recursive: true });
    await Deno.mkdir(home);
    const files = { "README.md": "# habits\n", "AGENTS.md": "Run `make test`.\n", ...run.files };
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(join(cwd, path, ".."), { recursive: true });
      await Deno.writeTextFile(join(cwd, path), text);
    }
    await git(cwd, "init", "-q", "-b", "main");
    const base = run.wire === "messages" ? fake.origin : fake.baseUrl;
    await Deno.writeTextFile(
      join(home, "config.toml"),
      `model = "${run.model ?? "test-model"}"\nmodel_provider = "fake"\n` +
        `harness = "${run.harness}"\n${run.config ?? ""}\n` +
        `[model_providers.fake]\nname = "Fake"\nbase_url = "${base}"\n` +
        `wire_api = "${run.wire}"\nenv_key = "FAKE_API_KEY"\n`,
    );
    const env = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: root,
      SHELL: "/bin/bash",
      OPENINTERPRETER_HOME: home,
      OPENINTERPRETER_TEST_TIME: "2026-12-01 09:30:00",
      FAKE_API_KEY: "k",
      NO_COLOR: "1",
      ...GIT_ENV,
      ...run.env,
    };
    {
      await using session = await openSession(
        { cwd, sandbox: "danger-full-access", approval: run.approval ?? "never" },
        { onEvent: () => {} },
        { env },
      );
      await session.prompt(run.prompt ?? "fix the test", new AbortController().signal);
    }
    assert.ok(fake.requests.length >= 1, JSON.stringify(fake.failures));
    return { bodies: fake.requests.map((r) => r.body as Json), cwd };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Every string in `value`, depth first. */
export function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}
