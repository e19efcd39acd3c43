import assert from "node:assert/strict";
import { join } from "node:path";
import { createSession, type SessionHeaderInput } from "../store/store.ts";
import { setSessionName } from "../store/names.ts";
import { testHeader, userEvent } from "../store/_testing.ts";
import { UntrustedDirectoryError } from "./errors.ts";
import { freshOpening, isOpening, reconfigured, resolveOpening, resumedIn } from "./opening.ts";
import {
  AmbiguousSessionError,
  NotASessionIdError,
  SessionNotFoundError,
} from "./opening_errors.ts";
import type { ResumeTarget } from "./types.ts";

/** A git repository to work in and a config home beside it, both removed on dispose. */
async function place() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_opening_" }));
  const repo = join(root, "repo");
  const plain = join(root, "plain");
  const home = join(root, "home");
  for (const dir of [repo, plain, home]) await Deno.mkdir(dir);
  const git = await new Deno.Command("git", { args: ["init", "-q"], cwd: repo }).output();
  assert.ok(git.success, "git init");
  const env = { OPENINTERPRETER_HOME: home, HOME: root };
  return { root, repo, plain, home, env, [Symbol.asyncDispose]: () => rm(root) };
}

function rm(dir: string) {
  return Deno.remove(dir, { recursive: true });
}

/** A saved session with one prompt, in `cwd`, created at hour `hour` of one day. */
async function saved(
  home: string,
  cwd: string,
  hour: number,
  more: Partial<SessionHeaderInput> = {},
) {
  const header = testHeader({ cwd, created: new Date(2025, 0, 2, hour), ...more });
  await using writer = await createSession(home, header);
  await writer.append({ type: "model_switch", provider: "anthropic", model: "claude-x" });
  await writer.append(userEvent(`task at ${hour}`));
  return { id: writer.id, file: writer.file };
}

Deno.test("resolveOpening() finds a session by id, id prefix, unique name, file and --last", async () => {
  await using p = await place();
  const older = await saved(p.home, p.repo, 9);
  const newer = await saved(p.home, p.repo, 10);
  await setSessionName(p.home, older.id, "login fix");
  const open = (resume: ResumeTarget) =>
    resolveOpening({ config: { cwd: p.repo, resume }, env: p.env });
  for (const ref of [older.id, older.id.slice(0, 18), "login fix", older.file]) {
    const opening = await open({ id: ref });
    assert.ok(isOpening(opening));
    assert.equal(opening.resumed?.id, older.id, ref);
    assert.equal(opening.resumed?.file, older.file, ref);
    assert.equal(opening.config.resume, undefined, "nothing is left to look up");
  }
  const last = await open({ last: true });
  assert.equal(last.resumed?.id, newer.id);
  // The saved session's settings come back plain, for the session to apply.
  assert.deepEqual(last.resumed?.settings, {
    model: "claude-x",
    provider: "anthropic",
    harness: "claude_code",
  });
  assert.equal(last.resumed?.cwd, p.repo);
  assert.equal(last.resumed?.saved.header.id, newer.id);
  const fresh = await resolveOpening({ config: { cwd: p.repo }, env: p.env });
  assert.equal(fresh.resumed, undefined);
});

Deno.test("a name two sessions share is an error listing both; an unknown one names where it looked", async () => {
  await using p = await place();
  const a = await saved(p.home, p.repo, 9);
  const b = await saved(p.home, p.plain, 10);
  await setSessionName(p.home, a.id, "refactor");
  await setSessionName(p.home, b.id, "refactor");
  await assert.rejects(
    resolveOpening({ config: { cwd: p.repo, resume: { id: "refactor" } }, env: p.env }),
    (error: unknown) => {
      assert.ok(error instanceof AmbiguousSessionError);
      assert.deepEqual(error.candidates.map((c) => [c.id, c.name, c.cwd]), [
        [b.id, "refactor", p.plain],
        [a.id, "refactor", p.repo],
      ]);
      assert.match(error.message, /^"refactor" matches 2 saved sessions: /);
      assert.ok(error.message.includes(a.id) && error.message.includes(b.id));
      assert.match(error.hint!, /session id/);
      return true;
    },
  );
  // A name only one session has is found (benign control), and a name nobody has is not.
  await setSessionName(p.home, b.id, "refactor 2");
  const one = await resolveOpening({
    config: { cwd: p.repo, resume: { id: "refactor" } },
    env: p.env,
  });
  assert.equal(one.resumed?.id, a.id);
  await assert.rejects(
    resolveOpening({ config: { cwd: p.repo, resume: { id: "no such name" } }, env: p.env }),
    (error: unknown) => {
      assert.ok(error instanceof SessionNotFoundError);
      assert.match(error.message, /^No session with the id or name "no such name" in "/);
      assert.deepEqual(error.target, { id: "no such name" });
      return true;
    },
  );
});

Deno.test("with accept: id a file path, a prefix or a name is refused; a whole id is found", async () => {
  await using p = await place();
  const one = await saved(p.home, p.repo, 9);
  await setSessionName(p.home, one.id, "named");
  for (const ref of [one.file, `../${one.id}`, one.id.slice(0, 8), "named"]) {
    await assert.rejects(
      resolveOpening({ config: { cwd: p.repo, resume: { id: ref } }, env: p.env, accept: "id" }),
      (error: unknown) => {
        assert.ok(error instanceof NotASessionIdError, ref);
        assert.equal(error.ref, ref);
        return true;
      },
    );
  }
  const byId = await resolveOpening({
    config: { cwd: p.repo, resume: { id: one.id } },
    env: p.env,
    accept: "id",
  });
  assert.equal(byId.resumed?.file, one.file);
  const missing = "0190aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee";
  await assert.rejects(
    resolveOpening({ config: { cwd: p.repo, resume: { id: missing } }, env: p.env, accept: "id" }),
    SessionNotFoundError,
  );
});

Deno.test("an untrusted directory is refused before any lookup, unless the check is skipped", async () => {
  await using p = await place();
  await assert.rejects(
    resolveOpening({ config: { cwd: p.plain, resume: { id: "no-such" } }, env: p.env }),
    (error: unknown) => {
      assert.ok(error instanceof UntrustedDirectoryError, String(error));
      assert.equal(error.cwd, p.plain);
      return true;
    },
  );
  const skipped = await resolveOpening({ config: { cwd: p.plain, skipGitRepoCheck: true } });
  assert.equal(skipped.config.cwd, p.plain);
});

Deno.test("cwd: saved opens in the session's own directory and checks that one", async () => {
  await using p = await place();
  const inRepo = await saved(p.home, p.repo, 9);
  const inPlain = await saved(p.home, p.plain, 10);
  const gone = await saved(p.home, join(p.root, "gone"), 11);
  const open = (id: string) =>
    resolveOpening({
      config: { cwd: p.plain, resume: { id } },
      env: p.env,
      accept: "id",
      cwd: "saved",
    });
  assert.equal((await open(inRepo.id)).config.cwd, p.repo);
  await assert.rejects(open(inPlain.id), UntrustedDirectoryError);
  // A directory that no longer exists leaves the request's (refused here: not a repository).
  await assert.rejects(
    open(gone.id),
    (e: unknown) => (e as UntrustedDirectoryError).cwd === p.plain,
  );
});

Deno.test("fork: the opening continues a copy, the original untouched", async () => {
  await using p = await place();
  const original = await saved(p.home, p.repo, 9);
  const before = await Deno.readTextFile(original.file);
  const opening = await resolveOpening({
    config: { cwd: p.repo, resume: { last: true } },
    env: p.env,
    fork: true,
  });
  assert.ok(opening.forked);
  assert.equal(opening.forked.from.id, original.id);
  assert.equal(opening.resumed?.id, opening.forked.id);
  assert.notEqual(opening.resumed?.id, original.id);
  assert.equal(await Deno.readTextFile(original.file), before);
});

Deno.test("reconfigured() keeps the checked directory; resumedIn() looks up on a fresh opening", async () => {
  await using p = await place();
  const one = await saved(p.home, p.repo, 9);
  const fresh = await resolveOpening({ config: { cwd: p.repo }, env: p.env });
  // deno-lint-ignore no-explicit-any -- a front end passing what the type forbids
  const changed = reconfigured(fresh, { model: "m", cwd: p.plain } as any);
  assert.deepEqual([changed.config.cwd, changed.config.model], [p.repo, "m"]);
  const resumed = await resumedIn(fresh, { id: one.id }, { env: p.env });
  assert.equal(resumed.resumed?.id, one.id);
  assert.equal(freshOpening(resumed).resumed, undefined);
  assert.equal(isOpening({ config: { cwd: p.repo } }), false);
});
