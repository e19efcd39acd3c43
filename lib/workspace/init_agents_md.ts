/**
 * `/init`: the model studies the repository and writes a first AGENTS.md for the working
 * directory. An AGENTS.md that exists is never replaced without the user's yes, and the guard is
 * on the write itself, not only on the question:
 *
 * 1. `planInit()` reads the AGENTS.md there now; the front end asks before the turn when there is
 *    one, and on no sends nothing.
 * 2. The model never writes AGENTS.md. It is told to write a draft beside it, `AGENTS.init.md`
 *    (a name that must be free when `/init` starts, so the draft is surely the model's), and a
 *    turn that is stopped, fails or goes astray leaves the real file as it was.
 * 3. `finishInit()` is the only writer of AGENTS.md: it moves a complete draft into place with one
 *    rename, and only while AGENTS.md is still what the user agreed to (absent, or the bytes they
 *    said yes to replacing). Anything else there now (a file that appeared during the turn, or
 *    one the model wrote despite being told not to) is asked about again. A stopped or failed
 *    turn moves nothing, and its draft is removed.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "../errors.ts";
import { readInputFile } from "../input_file.ts";

/** The prompt `/init` sends, with `{draft}`, `{target}` and `{existing}` filled in. */
const INIT_PROMPT_FILE = fileURLToPath(
  new URL("../../harnesses/_shared/init.md", import.meta.url),
);

/** What one `/init` works with. */
export interface InitPlan {
  /** `<cwd>/AGENTS.md`. */
  target: string;
  /** Where the model writes its draft: `AGENTS.init.md` beside the target. */
  draft: string;
  /** The target when `/init` started: there or not, and its bytes when they could be read. */
  existing: Snapshot;
  /** The prompt to send. */
  prompt: string;
}

/** How `/init` ended, with the line that tells the user. */
export interface InitResult {
  status: "written" | "replaced" | "kept" | "not_written";
  message: string;
}

/** A path as it was at one moment: absent, or there with its bytes (none: not readable). */
export type Snapshot = { exists: false } | { exists: true; bytes?: Uint8Array };

const MAX_BYTES = 4 * 1024 * 1024;

/** Reads what is there now and words the prompt (see the module comment). */
export async function planInit(cwd: string): Promise<InitPlan> {
  const target = join(cwd, "AGENTS.md");
  const draft = join(cwd, "AGENTS.init.md");
  if (await Deno.lstat(draft).then(() => true, () => false)) {
    throw new UserError(`Cannot run /init: ${draft} exists`, {
      hint: "/init has the model write its draft there; move that file away (an earlier /init " +
        "that was cut off may have left it) and run /init again",
    });
  }
  const existing = await snapshot(target);
  const template = await Deno.readTextFile(INIT_PROMPT_FILE);
  const note = existing.exists
    ? ` It replaces the AGENTS.md there now, which the user agreed to: read it first and keep ` +
      "what still holds."
    : "";
  const prompt = template.replace(
    /\{(draft|target|existing)\}/g,
    (_, name: string) => name === "draft" ? draft : name === "target" ? target : note,
  ).trim();
  return { target, draft, existing, prompt };
}

/**
 * After the turn: moves the draft into place when the turn `completed` and AGENTS.md is still
 * what the user agreed to, else asks `confirmReplace` (see the module comment).
 */
export async function finishInit(
  plan: InitPlan,
  opts: { completed: boolean; confirmReplace(): Promise<boolean> },
): Promise<InitResult> {
  const draft = await readDraft(plan.draft);
  if (!opts.completed) {
    await removeDraft(plan.draft);
    return { status: "not_written", message: "AGENTS.md was not written: the turn did not finish" };
  }
  const now = await snapshot(plan.target);
  if (!draft) {
    await removeDraft(plan.draft);
    if (now.exists && !unchanged(now, plan.existing)) {
      return plan.existing.exists
        ? { status: "replaced", message: `The model replaced ${plan.target} itself` }
        : { status: "written", message: `The model wrote ${plan.target} itself` };
    }
    return {
      status: "not_written",
      message: `The model wrote no draft at ${plan.draft}: AGENTS.md is unchanged`,
    };
  }
  if (now.exists && !unchanged(now, plan.existing) && !await opts.confirmReplace()) {
    await removeDraft(plan.draft);
    return { status: "kept", message: `Kept ${plan.target} as it is; the draft was removed` };
  }
  await Deno.rename(plan.draft, plan.target);
  return now.exists
    ? { status: "replaced", message: `Replaced ${plan.target} with the new draft` }
    : { status: "written", message: `Wrote ${plan.target}` };
}

/** The draft's bytes when it is a regular file (not a link) that holds text. */
async function readDraft(path: string): Promise<Uint8Array | undefined> {
  const info = await Deno.lstat(path).catch(() => undefined);
  if (!info?.isFile) return undefined;
  const bytes = await readFile(path);
  return bytes && new TextDecoder().decode(bytes).trim() ? bytes : undefined;
}

/** What is at `path` now. */
async function snapshot(path: string): Promise<Snapshot> {
  const there = await Deno.lstat(path).then(
    () => true,
    (e) => !(e instanceof Deno.errors.NotFound),
  );
  if (!there) return { exists: false };
  const bytes = await readFile(path);
  return bytes ? { exists: true, bytes } : { exists: true };
}

async function readFile(path: string): Promise<Uint8Array | undefined> {
  return await readInputFile(path, { what: "AGENTS.md", maxBytes: MAX_BYTES }).catch(() =>
    undefined
  );
}

async function removeDraft(path: string): Promise<void> {
  const info = await Deno.lstat(path).catch(() => undefined);
  if (info?.isFile || info?.isSymlink) await Deno.remove(path).catch(() => {});
}

/** True when `now` is what the user agreed to: the same bytes (an unreadable file never is). */
function unchanged(now: Snapshot, agreed: Snapshot): boolean {
  if (!now.exists || !agreed.exists) return now.exists === agreed.exists;
  const [a, b] = [now.bytes, agreed.bytes];
  return !!a && !!b && a.length === b.length && a.every((byte, i) => byte === b[i]);
}
