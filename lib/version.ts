/**
 * Version and build identity, read without spawning processes: the version from `deno.json`,
 * the commit from build info baked in by `scripts/compile.ts`, else from the checkout's `.git`.
 * `--version` runs this at startup, so it avoids `node:` modules (they add about 30 ms).
 */
import denoJson from "../deno.json" with { type: "json" };
import buildInfo from "./_build_info.json" with { type: "json" };

/** The release version, from the "version" field of `deno.json`. */
export const VERSION: string = denoJson.version;

const SHORT_HASH_LENGTH = 12;
const HASH = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** The short (12 character) commit this build came from, or "unknown". Never throws. */
export async function gitCommit(): Promise<string> {
  const commit = buildInfo.commit || await checkoutCommit();
  return commit ? commit.slice(0, SHORT_HASH_LENGTH) : "unknown";
}

/** The commit of the checkout this module is running from, if it runs from a checkout. */
async function checkoutCommit(): Promise<string | undefined> {
  try {
    const url = new URL("..", import.meta.url);
    if (url.protocol !== "file:") return undefined;
    const path = decodeURIComponent(url.pathname);
    return await readGitCommit(/^\/[A-Za-z]:/.test(path) ? path.slice(1) : path);
  } catch {
    return undefined;
  }
}

/**
 * The full commit hash checked out in the work tree at `repoDir` (which holds `.git`), or
 * undefined when there is none: not a repository, no commit yet, or unreadable files.
 * Follows a `.git` file (worktrees, submodules), symbolic refs in HEAD and `packed-refs`.
 */
export async function readGitCommit(repoDir: string): Promise<string | undefined> {
  const gitDir = await resolveGitDir(repoDir);
  if (!gitDir) return undefined;
  const head = (await readText(join(gitDir, "HEAD")))?.trim();
  if (!head) return undefined;
  if (!head.startsWith("ref:")) return HASH.test(head) ? head : undefined;
  const ref = head.slice("ref:".length).trim();
  const commonDir = await readCommonDir(gitDir);
  for (const dir of new Set([gitDir, commonDir])) {
    const loose = (await readText(join(dir, ref)))?.trim();
    if (loose && HASH.test(loose)) return loose;
  }
  return findPackedRef(await readText(join(commonDir, "packed-refs")), ref);
}

/** The git directory of a work tree: `.git` itself, or the target of a `.git` file's `gitdir:`. */
async function resolveGitDir(repoDir: string): Promise<string | undefined> {
  const dotGit = join(repoDir, ".git");
  const info = await Deno.stat(dotGit).catch(() => undefined);
  if (!info) return undefined;
  if (info.isDirectory) return dotGit;
  const line = (await readText(dotGit))?.trim();
  if (!line?.startsWith("gitdir:")) return undefined;
  return join(repoDir, line.slice("gitdir:".length).trim());
}

/** Linked worktrees keep refs in the main repository, named by their `commondir` file. */
async function readCommonDir(gitDir: string): Promise<string> {
  const common = (await readText(join(gitDir, "commondir")))?.trim();
  return common ? join(gitDir, common) : gitDir;
}

function findPackedRef(packed: string | undefined, ref: string): string | undefined {
  for (const line of packed?.split("\n") ?? []) {
    const [hash, name] = line.trim().split(/\s+/);
    if (name === ref && HASH.test(hash)) return hash;
  }
  return undefined;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return undefined;
  }
}

/** `path` if absolute, else `path` under `dir`; the OS resolves any `..` in it. */
function join(dir: string, path: string): string {
  return /^([A-Za-z]:)?[\\/]/.test(path) ? path : `${dir.replace(/[\\/]+$/, "")}/${path}`;
}
