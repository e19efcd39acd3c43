/**
 * The file-tool helper and protected names that do not exist: Deno's deny list names them, so
 * file tools cannot create them, and the helper needs no placeholder of its own. While a command's
 * placeholder exists, a symlink to it does not let the helper write into it either. Each denial
 * has a control in this process, where the same operation goes through.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_PROTECTED_NAMES, type SandboxPolicy } from "./bwrap_args.ts";
import { FsRefusedError, inProcessFs } from "./file_system.ts";
import { deniedWritePaths, fileSystemFor } from "./fs_helper_client.ts";
import { isPlaceholder, PlaceholderGuard } from "./placeholders.ts";
import { need } from "./_test_requires.ts";

const skip = (await need("bwrap")).note;

interface Layout extends AsyncDisposable {
  root: string;
  ws: string;
  policy: SandboxPolicy;
  names(): Promise<string[]>;
}

/** `<root>/ws` with one file, outside /tmp, and the workspace-write policy for it. */
async function layout(): Promise<Layout> {
  const parent = Deno.env.get("HOME") ?? "/var/tmp";
  const root = await Deno.realPath(await Deno.makeTempDir({ dir: parent, prefix: "oi_fsp_" }));
  const ws = join(root, "ws");
  await Deno.mkdir(ws);
  await Deno.writeTextFile(join(ws, "a.txt"), "a\n");
  return {
    root,
    ws,
    policy: {
      mode: "workspace-write",
      writableRoots: [ws],
      protectedNames: [...DEFAULT_PROTECTED_NAMES],
      networkAccess: false,
      privateTmp: false,
    },
    names: async () => (await Array.fromAsync(Deno.readDir(ws), (e) => e.name)).sort(),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("deniedWritePaths() names every protected name under every root, existing or not", () => {
  const policy: SandboxPolicy = {
    mode: "workspace-write",
    writableRoots: ["/w/a", "/w/b"],
    protectedNames: [...DEFAULT_PROTECTED_NAMES],
    networkAccess: false,
    privateTmp: false,
  };
  const denied = deniedWritePaths(policy, []);
  for (const root of policy.writableRoots) {
    for (const name of DEFAULT_PROTECTED_NAMES) assert.ok(denied.includes(join(root, name)));
  }
});

Deno.test({
  name: "the file helper cannot create missing protected names" + skip,
  ignore: skip !== "",
  async fn() {
    await using l = await layout();
    const { fs } = await fileSystemFor(l.policy, { probeOk: true });
    try {
      const attempts: [string, () => Promise<void>][] = [
        [".git", () => fs.mkdirp(join(l.ws, ".git", "hooks"))],
        [".agents", () => fs.mkdirp(join(l.ws, ".agents", "skills", "x"))],
        [
          ".openinterpreter",
          () => fs.writeFileAtomic(join(l.ws, ".openinterpreter", "config.toml"), bytes("x")),
        ],
        [".agents file", () => fs.writeFileAtomic(join(l.ws, ".agents"), bytes("x"))],
        ["rename", () => fs.rename(join(l.ws, "a.txt"), join(l.ws, ".openinterpreter"))],
      ];
      for (const [what, attempt] of attempts) {
        await assert.rejects(attempt, FsRefusedError, what);
      }
      await fs.writeFileAtomic(join(l.ws, "b.txt"), bytes("b"));
      assert.deepEqual(await l.names(), ["a.txt", "b.txt"]);
    } finally {
      await fs[Symbol.asyncDispose]();
    }
    // Control: in this process nothing stops the same calls.
    await inProcessFs.mkdirp(join(l.ws, ".agents", "skills", "x"));
    assert.deepEqual(await l.names(), [".agents", "a.txt", "b.txt"]);
  },
});

Deno.test({
  name: "the file helper cannot write into a command's placeholder through a symlink" + skip,
  ignore: skip !== "",
  async fn() {
    await using l = await layout();
    const records = join(l.root, "records");
    await Deno.mkdir(records);
    await using guard = new PlaceholderGuard({
      roots: [l.ws],
      names: DEFAULT_PROTECTED_NAMES,
      recordDir: records,
    });
    await guard.cover(); // a command is about to run: the placeholders exist
    await Deno.symlink(".agents", join(l.ws, "evil")); // as a sandboxed command may have made
    const { fs } = await fileSystemFor(l.policy, { probeOk: true });
    try {
      await assert.rejects(fs.mkdirp(join(l.ws, "evil", "skills", "x")));
      await assert.rejects(fs.writeFileAtomic(join(l.ws, "evil", "SKILL.md"), bytes("x")));
      await assert.rejects(fs.writeFileAtomic(join(l.ws, "evil"), bytes("x")));
    } finally {
      await fs[Symbol.asyncDispose]();
    }
    assert.ok(await isPlaceholder(join(l.ws, ".agents")), "the placeholder is still empty");
    if (Deno.uid() === 0) {
      // Control: root outside a sandbox writes through the link (caps override the mode).
      await inProcessFs.mkdirp(join(l.ws, "evil", "skills"));
      assert.equal(await isPlaceholder(join(l.ws, ".agents")), false);
      await Deno.remove(join(l.ws, ".agents", "skills"));
    }
  },
});
