/**
 * Test helper: a repository whose config makes git run `plant.sh` (which creates `marker` and
 * prints a secret from outside the repository) or read a work tree outside it. `f.txt` is
 * committed as `hello` and edited to add `more`; `u.txt` is untracked.
 */
import { join } from "node:path";

/** Where the planted program hides. */
export type Plant =
  | "none"
  | "filter"
  | "textconv"
  | "external"
  | "global_filter"
  | "worktree"
  | "submodule";

/** The text of the host file the planted program tries to leak. */
export const SECRET = "HOST_SECRET_4f1c";

/** A temp dir outside /tmp (sandboxed commands get a private /tmp) holding the repository. */
export async function hostileRepo(plant: Plant) {
  const base = await Deno.realPath(
    await Deno.makeTempDir({ dir: join(Deno.cwd(), ".."), prefix: ".oi_git_" }),
  );
  const dir = join(base, "repo");
  const home = join(base, "home");
  const marker = join(base, "marker");
  const plantScript = join(base, "plant.sh");
  const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: home };
  const git = async (cwd: string, ...args: string[]) => {
    const out = await new Deno.Command("git", {
      args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
      cwd,
      env: { ...env, GIT_CONFIG_NOSYSTEM: "1" },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    return new TextDecoder().decode(out.stdout);
  };
  await Deno.mkdir(home);
  await Deno.writeTextFile(join(base, "secret.txt"), `${SECRET}\n`);
  // The secret, then what it was given: stdin as a filter, a file as textconv.
  await Deno.writeTextFile(
    plantScript,
    `#!/bin/sh\ntouch '${marker}'\ncat '${base}/secret.txt'\ncat "$@" 2>/dev/null\nexit 0\n`,
  );
  await Deno.chmod(plantScript, 0o755);
  await committedRepo(dir, plant === "none" ? "" : "* filter=evil diff=evil\n", git);
  if (plant === "submodule") await addSubmodule(base, git);
  await planted(plant, { base, dir, home, plantScript }, git);
  await Deno.writeTextFile(join(dir, "f.txt"), "hello\nmore\n");
  await Deno.writeTextFile(join(dir, "u.txt"), "untracked\n");
  if (plant === "submodule") await Deno.writeTextFile(join(dir, "sub", "s.txt"), "edited\n");
  return {
    dir,
    env,
    /** What plain `git ARGS` prints in the repository, run as a user would. */
    hostGit: (...args: string[]) => git(dir, ...args),
    planted: () => Deno.stat(marker).then(() => true, () => false),
    clearMarker: () => Deno.remove(marker).catch(() => {}),
    [Symbol.asyncDispose]: () => Deno.remove(base, { recursive: true }),
  };
}

type Git = (cwd: string, ...args: string[]) => Promise<string>;

async function committedRepo(dir: string, attributes: string, git: Git) {
  await Deno.mkdir(dir);
  await git(dir, "init", "-q");
  await Deno.writeTextFile(join(dir, "f.txt"), "hello\n");
  if (attributes) await Deno.writeTextFile(join(dir, ".gitattributes"), attributes);
  await git(dir, "add", ".");
  await git(dir, "commit", "-qm", "init");
}

/** Adds `sub`, a submodule with `s.txt` under the same attributes, and inline submodule diffs. */
async function addSubmodule(base: string, git: Git) {
  const source = join(base, "sub_source");
  await Deno.mkdir(source);
  await git(source, "init", "-q");
  await Deno.writeTextFile(join(source, "s.txt"), "sub\n");
  await Deno.writeTextFile(join(source, ".gitattributes"), "* filter=evil\n");
  await git(source, "add", ".");
  await git(source, "commit", "-qm", "sub");
  const dir = join(base, "repo");
  await git(dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", source, "sub");
  await git(dir, "commit", "-qm", "add sub");
  await git(dir, "config", "diff.submodule", "diff");
}

async function planted(
  plant: Plant,
  at: { base: string; dir: string; home: string; plantScript: string },
  git: Git,
) {
  switch (plant) {
    case "filter":
      return await git(at.dir, "config", "filter.evil.clean", at.plantScript);
    case "textconv":
      return await git(at.dir, "config", "diff.evil.textconv", at.plantScript);
    case "external":
      return await git(at.dir, "config", "diff.external", at.plantScript);
    case "global_filter":
      return await Deno.writeTextFile(
        join(at.home, ".gitconfig"),
        `[filter "evil"]\n\tclean = ${at.plantScript}\n`,
      );
    case "worktree": {
      const outside = join(at.base, "outside");
      await Deno.mkdir(outside);
      await Deno.writeTextFile(join(outside, "f.txt"), `${SECRET}\n`);
      return await git(at.dir, "config", "core.worktree", outside);
    }
    case "submodule": {
      const config = join(at.dir, ".git", "modules", "sub", "config");
      return await git(at.dir, "config", "-f", config, "filter.evil.clean", at.plantScript);
    }
  }
}
