import assert from "node:assert/strict";
import { join } from "node:path";
import { applyChosenPatch, type ApplyRequest } from "./apply.ts";
import { UserError } from "../../../errors.ts";
import { openChangeWatch } from "../../../workspace/held_back.ts";
import { need } from "../../../../sandbox/_test_requires.ts";

const BWRAP = await need("bwrap");

/** A committed repository in a temp folder, with a config home beside it. */
interface Repo extends AsyncDisposable {
  root: string;
  home: string;
  git(...args: string[]): Promise<string>;
  write(path: string, text: string | Uint8Array): Promise<void>;
  read(path: string): Promise<Uint8Array | undefined>;
  request(patch: string, more?: Partial<ApplyRequest>): ApplyRequest;
}

async function repo(files: Record<string, string | Uint8Array>): Promise<Repo> {
  const top = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_arena_apply_" }));
  const root = join(top, "repo");
  const home = join(top, "home");
  await Deno.mkdir(root);
  await Deno.mkdir(home);
  const git = async (...args: string[]) => {
    const out = await new Deno.Command("git", {
      args: ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
    }
    return new TextDecoder().decode(out.stdout);
  };
  const write = async (path: string, data: string | Uint8Array) => {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    await Deno.writeFile(join(root, path), bytes);
  };
  await git("init", "-q");
  for (const [path, data] of Object.entries(files)) await write(path, data);
  await git("add", "-A");
  await git("commit", "-qm", "start");
  return {
    root,
    home,
    git,
    write,
    read: (path) => Deno.readFile(join(root, path)).catch(() => undefined),
    request: (patch, more = {}) => ({
      cwd: root,
      root,
      patch,
      patchFile: join(top, "b", "agent", "patch.diff"),
      label: "b",
      yes: false,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: home,
        OPENINTERPRETER_HOME: home,
      },
      ...more,
    }),
    [Symbol.asyncDispose]: () => Deno.remove(top, { recursive: true }),
  };
}

/** The patch `edit` makes, as the arena's trials take it; the tree is reset to HEAD after. */
async function patchOf(r: Repo, edit: () => Promise<void>): Promise<string> {
  await edit();
  await r.git("add", "-A");
  const patch = await r.git("diff", "--cached", "--binary");
  await r.git("reset", "-q", "--hard");
  await r.git("clean", "-qfd");
  return patch;
}

/** Every file under the root but `.git`, path → bytes as text. */
async function tree(root: string, dir = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const entry of Deno.readDir(join(root, dir))) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (path === ".git") continue;
    if (entry.isSymlink) out[path] = `-> ${await Deno.readLink(join(root, path))}`;
    else if (entry.isDirectory) Object.assign(out, await tree(root, path));
    else out[path] = Array.from(await Deno.readFile(join(root, path))).join(",");
  }
  return out;
}

const ignore = BWRAP.ignore;
const bytes = (...values: number[]) => new Uint8Array(values);

Deno.test({
  name: `applyChosenPatch() changes exactly the patch's files, binary ones too${BWRAP.note}`,
  ignore,
  async fn() {
    await using r = await repo({ "a.txt": "one\n", "gone.txt": "x\n", "bin": bytes(0, 1, 2) });
    const patch = await patchOf(r, async () => {
      await r.write("a.txt", "one\ntwo  \n");
      await Deno.remove(join(r.root, "gone.txt"));
      await r.write("bin", bytes(0, 9, 255, 0));
      await r.write("src/new.txt", "new\n");
    });
    await r.write("untouched.txt", "mine\n");
    await r.git("config", "apply.whitespace", "fix");
    const applied = await applyChosenPatch(r.request(patch));
    assert.deepEqual(applied, {
      files: ["a.txt", "bin", "gone.txt", "src/new.txt"],
      protectedPaths: [],
    });
    assert.equal(new TextDecoder().decode(await r.read("a.txt")), "one\ntwo  \n");
    assert.deepEqual(await r.read("bin"), bytes(0, 9, 255, 0));
    assert.equal(await r.read("gone.txt"), undefined);
    assert.equal(new TextDecoder().decode(await r.read("src/new.txt")), "new\n");
    assert.equal(new TextDecoder().decode(await r.read("untouched.txt")), "mine\n");
    for (const name of [".agents", ".openinterpreter"]) {
      assert.equal(await Deno.lstat(join(r.root, name)).catch(() => undefined), undefined, name);
    }
    assert.deepEqual(await applyChosenPatch(r.request(" \n")), { files: [], protectedPaths: [] });
  },
});

Deno.test({
  name: `applyChosenPatch() changes nothing and names the file when the tree moved on${BWRAP.note}`,
  ignore,
  async fn() {
    await using r = await repo({ "a.txt": "one\n", "b.txt": "two\n" });
    const patch = await patchOf(r, async () => {
      await r.write("b.txt", "two, fixed\n");
      await r.write("a.txt", "one, fixed\n");
      await r.write("c.txt", "new\n");
    });
    await r.write("a.txt", "one, changed meanwhile\n");
    const before = await tree(r.root);
    await assert.rejects(applyChosenPatch(r.request(patch)), (error: UserError) => {
      assert.match(
        error.message,
        /^The patch of b does not apply: .*a\.txt.*; nothing was changed$/,
      );
      assert.match(error.hint ?? "", /git apply .*patch\.diff after resolving/);
      return true;
    });
    assert.deepEqual(await tree(r.root), before);
  },
});

Deno.test({
  name:
    `applyChosenPatch() refuses a patch that makes a symbolic link, applying nothing${BWRAP.note}`,
  ignore,
  async fn() {
    await using r = await repo({ "a.txt": "one\n" });
    const patch = await patchOf(r, async () => {
      await r.write("a.txt", "two\n");
      await Deno.symlink("/etc/passwd", join(r.root, "link"));
    });
    const before = await tree(r.root);
    await assert.rejects(
      applyChosenPatch(r.request(patch, { yes: true })),
      /link \(a symbolic link\)/,
    );
    assert.deepEqual(await tree(r.root), before);
  },
});

Deno.test({
  name: `applyChosenPatch() refuses a path whose folder is a symbolic link now${BWRAP.note}`,
  ignore,
  async fn() {
    await using r = await repo({ "d/x.txt": "one\n" });
    const patch = await patchOf(r, () => r.write("d/x.txt", "two\n"));
    const outside = join(r.home, "elsewhere");
    await Deno.mkdir(outside);
    await Deno.writeTextFile(join(outside, "x.txt"), "one\n");
    await Deno.remove(join(r.root, "d"), { recursive: true });
    await Deno.symlink(outside, join(r.root, "d"));
    await assert.rejects(
      applyChosenPatch(r.request(patch, { yes: true })),
      /d\/x\.txt \(d is a symbolic link\)/,
    );
    assert.equal(await Deno.readTextFile(join(outside, "x.txt")), "one\n");
  },
});

Deno.test({
  name: `applyChosenPatch() asks before trust-relevant files and holds them back${BWRAP.note}`,
  ignore,
  async fn() {
    await using r = await repo({ "a.txt": "one\n" });
    const patch = await patchOf(r, async () => {
      await r.write("a.txt", "two\n");
      await r.write(".mcp.json", "{}\n");
      await r.write(".claude/settings.json", '{"hooks":{}}\n');
    });
    const before = await tree(r.root);
    const questions: string[] = [];
    const answer = (yes: boolean) => (question: string) => {
      questions.push(question);
      return Promise.resolve(yes);
    };
    await assert.rejects(applyChosenPatch(r.request(patch)), /there is no terminal to ask/);
    await assert.rejects(applyChosenPatch(r.request(patch, { ask: answer(false) })), /not allowed/);
    assert.deepEqual(await tree(r.root), before);
    assert.match(questions[0], /^The patch of b changes files that decide what later sessions/);
    assert.match(questions[0], /\.claude\/settings\.json, \.mcp\.json\. Apply them\?$/);

    const applied = await applyChosenPatch(r.request(patch, { ask: answer(true) }));
    assert.deepEqual(applied.protectedPaths, [".claude/settings.json", ".mcp.json"]);
    assert.equal(await Deno.readTextFile(join(r.root, ".claude/settings.json")), '{"hooks":{}}\n');
    const watch = await openChangeWatch({ cwd: r.root, root: r.root, home: r.home });
    await watch.close();
    assert.deepEqual(watch.held, [
      join(r.root, ".claude/settings.json"),
      join(r.root, ".mcp.json"),
    ]);
  },
});

Deno.test({
  name:
    `applyChosenPatch() applies trust-relevant files with -y, never asking, held back in their folders${BWRAP.note}`,
  ignore,
  async fn() {
    await using r = await repo({ "a.txt": "one\n" });
    const patch = await patchOf(r, async () => {
      await r.write(".agents/commands/go.md", "run it\n");
      await r.write("pkg/web/CLAUDE.md", "obey\n");
    });
    const ask = () => Promise.reject(new Error("asked"));
    const applied = await applyChosenPatch(r.request(patch, { yes: true, ask }));
    assert.deepEqual(applied.protectedPaths, [".agents/commands/go.md", "pkg/web/CLAUDE.md"]);
    assert.equal(await Deno.readTextFile(join(r.root, ".agents/commands/go.md")), "run it\n");
    const inPkg = join(r.root, "pkg", "web");
    const watch = await openChangeWatch({ cwd: inPkg, root: r.root, home: r.home });
    await watch.close();
    assert.deepEqual(watch.held, [
      join(r.root, ".agents/commands/go.md"),
      join(inPkg, "CLAUDE.md"),
    ]);
  },
});

Deno.test({
  name: `applyChosenPatch() refuses a patch into .git without asking${BWRAP.note}`,
  ignore,
  async fn() {
    await using r = await repo({ "a.txt": "one\n" });
    const patch = [
      "diff --git a/.git/hooks/pre-commit b/.git/hooks/pre-commit",
      "new file mode 100755",
      "index 0000000..1111111",
      "--- /dev/null",
      "+++ b/.git/hooks/pre-commit",
      "@@ -0,0 +1 @@",
      "+echo owned",
      "",
    ].join("\n");
    const ask = () => Promise.reject(new Error("asked"));
    await assert.rejects(
      applyChosenPatch(r.request(patch, { yes: true, ask })),
      /never writes: \.git\/hooks\/pre-commit \(inside a \.git folder\)$/,
    );
    assert.equal(await r.read(".git/hooks/pre-commit"), undefined);
  },
});

Deno.test({
  name: `applyChosenPatch() puts every file back when git fails midway${BWRAP.note}`,
  ignore,
  async fn() {
    await using r = await repo({ "a.txt": "one\n" });
    const patch = await patchOf(r, async () => {
      await r.write("a.txt", "two\n");
      await r.write("m/n/made.txt", "new\n");
      await r.write("x/new.txt", "new\n");
    });
    // `git apply --check` passes, then git cannot make the folder x: it writes a.txt first.
    await r.write("x", "a file where the patch needs a folder\n");
    const before = await tree(r.root);
    await assert.rejects(
      applyChosenPatch(r.request(patch)),
      /The patch of b does not apply: .*x\/new\.txt.*; nothing was changed$/,
    );
    assert.deepEqual(await tree(r.root), before);
    assert.equal(await Deno.lstat(join(r.root, "m")).catch(() => undefined), undefined);
  },
});
