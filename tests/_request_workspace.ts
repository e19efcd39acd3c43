/**
 * Test helper for the tests that run a real session against the scripted provider: a temporary
 * git repository, a config home whose config.toml names the provider, the session's environment,
 * and the normalizing of request bodies for golden files.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { WireApi } from "../lib/providers/types.ts";

/** Ada's name, e-mail and fixed dates, and no global or system git config. */
export const GIT_ENV: Readonly<Record<string, string>> = {
  GIT_AUTHOR_NAME: "Ada",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_AUTHOR_DATE: "2026-11-30T12:00:00Z",
  GIT_COMMITTER_NAME: "Ada",
  GIT_COMMITTER_EMAIL: "ada@example.com",
  GIT_COMMITTER_DATE: "2026-11-30T12:00:00Z",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

/** `record` without `keys`. */
export function omit(record: Readonly<Record<string, string>>, ...keys: string[]) {
  return Object.fromEntries(Object.entries(record).filter(([k]) => !keys.includes(k)));
}

/** Runs git in `cwd` with GIT_ENV; a failure fails the test with git's error output. */
export async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", { args, cwd, env: GIT_ENV, stderr: "piped" }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

/** The `[model_providers.<id>]` table config.toml names. */
export interface ProviderTable {
  id: string;
  /** Its `name`; left out when undefined. */
  name?: string;
  /** Its `env_key`; the session's environment sets this variable to "k". */
  envKey?: string;
}

const FAKE: ProviderTable = { id: "fake", name: "Fake", envKey: "FAKE_API_KEY" };

export interface WorkspaceOptions {
  /** The temporary directory's name prefix, such as `oi_requests_`. */
  prefix: string;
  /** Files written before `git init`, by path relative to the workspace. */
  files?: Record<string, string>;
  /** The branch `git init` starts on; default main, "" for git's own default. */
  branch?: string;
  /** Local git config set before the commit, such as `user.name`. */
  gitConfig?: Record<string, string>;
  /** Whether all files are committed once after `git init`; default true. */
  commit?: boolean;
  /** An AGENTS.md written after the commit, so an uncommitted change. */
  agents?: string;
  model: string;
  /** The `harness` config key; left out when undefined. */
  harness?: string;
  /** The provider's `wire_api`; left out when undefined. */
  wire?: WireApi;
  baseUrl: string;
  /** Default: `fake`, named Fake, whose key is FAKE_API_KEY. */
  provider?: ProviderTable;
  /** Config lines put after `harness`, each run followed by a line break. */
  config?: string;
  /** The git variables of the session's environment; default GIT_ENV. */
  gitEnv?: Record<string, string>;
  /** More session environment, last; an undefined value leaves the variable out. */
  env?: Record<string, string | undefined>;
}

/** A temporary workspace, its root (the session's HOME) and its config home. */
export interface RequestWorkspace extends AsyncDisposable {
  root: string;
  cwd: string;
  home: string;
  env: Record<string, string>;
}

/** Makes the workspace of `opts`; disposing of it removes the whole tree. */
export async function requestWorkspace(opts: WorkspaceOptions): Promise<RequestWorkspace> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: opts.prefix }));
  const cwd = join(root, "ws");
  const home = join(root, "home");
  await Deno.mkdir(cwd, { recursive: true });
  await Deno.mkdir(home);
  await gitRepository(cwd, opts);
  await Deno.writeTextFile(join(home, "config.toml"), configToml(opts));
  const env = sessionEnv(root, home, opts);
  return {
    root,
    cwd,
    home,
    env,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

async function gitRepository(cwd: string, opts: WorkspaceOptions): Promise<void> {
  for (const [path, text] of Object.entries(opts.files ?? {})) {
    await Deno.mkdir(join(cwd, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(cwd, path), text);
  }
  const branch = opts.branch ?? "main";
  await git(cwd, "init", "-q", ...(branch ? ["-b", branch] : []));
  for (const [key, value] of Object.entries(opts.gitConfig ?? {})) {
    await git(cwd, "config", key, value);
  }
  if (opts.commit ?? true) {
    await git(cwd, "add", ".");
    await git(cwd, "commit", "-q", "-m", "Start the habit tracker");
  }
  if (opts.agents !== undefined) await Deno.writeTextFile(join(cwd, "AGENTS.md"), opts.agents);
}

function configToml(opts: WorkspaceOptions): string {
  const p = opts.provider ?? FAKE;
  const lines = [`model = "${opts.model}"`, `model_provider = "${p.id}"`];
  if (opts.harness !== undefined) lines.push(`harness = "${opts.harness}"`);
  if (opts.config !== undefined) lines.push(opts.config);
  lines.push(`[model_providers.${p.id}]`);
  if (p.name !== undefined) lines.push(`name = "${p.name}"`);
  lines.push(`base_url = "${opts.baseUrl}"`);
  if (opts.wire !== undefined) lines.push(`wire_api = "${opts.wire}"`);
  if (p.envKey !== undefined) lines.push(`env_key = "${p.envKey}"`);
  return lines.map((line) => `${line}\n`).join("");
}

function sessionEnv(root: string, home: string, opts: WorkspaceOptions): Record<string, string> {
  const envKey = (opts.provider ?? FAKE).envKey;
  const env: Record<string, string | undefined> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: root,
    SHELL: "/bin/bash",
    OPENINTERPRETER_HOME: home,
    OPENINTERPRETER_TEST_TIME: "2026-12-01 09:30:00",
    ...(envKey ? { [envKey]: "k" } : {}),
    NO_COLOR: "1",
    ...(opts.gitEnv ?? GIT_ENV),
    ...opts.env,
  };
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined),
  );
}

/**
 * `value` with `replace` applied to every string, and a string over 1,500 characters shortened
 * to its start and a digest.
 */
export function normalize(value: unknown, replace: (text: string) => string): unknown {
  if (typeof value === "string") {
    const text = replace(value);
    if (text.length <= 1500) return text;
    const digest = createHash("sha256").update(text).digest("hex").slice(0, 12);
    return `${text.slice(0, 300)}… [${text.length} chars, sha256 ${digest}]`;
  }
  if (Array.isArray(value)) return value.map((v) => normalize(v, replace));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v, replace)]));
  }
  return value;
}
