/**
 * Test helper for the layout tests: the requests one prompt of a real session sends for a
 * harness, against the scripted provider, in a small git repository with an AGENTS.md.
 */
import assert from "node:assert/strict";
import { openSession } from "../lib/session/open.ts";
import type { WireApi } from "../lib/providers/types.ts";
import { startFakeProvider } from "./fake_provider/server.ts";
import { GIT_ENV, omit, requestWorkspace } from "./_request_workspace.ts";

type Json = Record<string, unknown>;

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
  await using ws = await requestWorkspace({
    prefix: "oi_layout_",
    files: { "README.md": "# habits\n", "AGENTS.md": "Run `make test`.\n", ...run.files },
    commit: false,
    model: run.model ?? "test-model",
    harness: run.harness,
    wire: run.wire,
    baseUrl: run.wire === "messages" ? fake.origin : fake.baseUrl,
    config: run.config ?? "",
    gitEnv: omit(GIT_ENV, "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"),
    env: run.env,
  });
  {
    await using session = await openSession(
      { cwd: ws.cwd, sandbox: "danger-full-access", approval: run.approval ?? "never" },
      { onEvent: () => {} },
      { env: ws.env },
    );
    await session.prompt(run.prompt ?? "fix the test", new AbortController().signal);
  }
  assert.ok(fake.requests.length >= 1, JSON.stringify(fake.failures));
  return { bodies: fake.requests.map((r) => r.body as Json), cwd: ws.cwd };
}

/** Every string in `value`, depth first. */
export function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}
