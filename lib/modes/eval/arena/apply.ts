/**
 * Puts the chosen contestant's patch into the user's working tree, all or nothing (issue 35).
 * Nothing else in the arena writes there; `lib/session/arena_apply.ts` has the mechanics.
 */
import { join } from "node:path";
import { UserError } from "../../../errors.ts";
import { applyReviewedPatch, type PatchReview, reviewPatch } from "../../../session/arena_apply.ts";

/** What to apply, and where. */
export interface ApplyRequest {
  /** Where the arena ran. */
  cwd: string;
  /** The repository's top folder, which the patch's paths are relative to. */
  root: string;
  /** The chosen trial's `agent/patch.diff` text (`git diff --cached --binary` output). */
  patch: string;
  /** That file, for messages. */
  patchFile: string;
  /** The contestant's label ("b"). */
  label: string;
  /** `-y`: trust-relevant paths are applied without asking. */
  yes: boolean;
  /** A y/N question on the terminal; absent when there is no one to ask. */
  ask?: (question: string) => Promise<boolean>;
  env: Record<string, string>;
}

/** What was applied: paths relative to the root, sorted, and the trust-relevant ones among them. */
export interface AppliedPatch {
  files: string[];
  protectedPaths: string[];
}

/**
 * Applies the chosen patch to the working tree; a `UserError` with a hint, the tree unchanged,
 * when it is refused or does not apply.
 */
export async function applyChosenPatch(req: ApplyRequest): Promise<AppliedPatch> {
  if (req.patch.trim() === "") return { files: [], protectedPaths: [] };
  const dir = await Deno.makeTempDir({ prefix: "interpreter-arena-patch-" });
  try {
    const patchFile = join(dir, "patch.diff");
    await Deno.writeTextFile(patchFile, req.patch);
    const review = await reviewPatch({ root: req.root, patchFile, env: req.env })
      .catch((error) => Promise.reject(withManualRoute(error, req)));
    if (review.refused.length > 0) throw refusal(req, review.refused);
    await confirmProtected(req, review);
    const outcome = await applyReviewedPatch({
      cwd: req.cwd,
      root: req.root,
      patchFile,
      review,
      env: req.env,
    });
    if (!outcome.applied) throw conflict(req, outcome.conflict, outcome.notRestored ?? []);
    return { files: review.files, protectedPaths: review.protectedPaths };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Asks before applying trust-relevant paths unless `-y` said yes; a `UserError` for a no. */
async function confirmProtected(req: ApplyRequest, review: PatchReview): Promise<void> {
  const paths = review.protectedPaths;
  if (paths.length === 0 || req.yes) return;
  const listed = paths.join(", ");
  if (req.ask === undefined) {
    throw new UserError(
      `Did not apply the patch of ${req.label}: it changes files that decide what later ` +
        `sessions trust or run (${listed}), and there is no terminal to ask`,
      {
        hint: `Review them in ${req.patchFile}, then run the arena again with -y to apply ` +
          `them, or apply it yourself with git apply ${req.patchFile}`,
      },
    );
  }
  const yes = await req.ask(
    `The patch of ${req.label} changes files that decide what later sessions trust or run: ` +
      `${listed}. Apply them?`,
  );
  if (yes) return;
  throw new UserError(
    `Did not apply the patch of ${req.label}: its changes to ${listed} were not allowed`,
    { hint: `Apply it yourself with git apply ${req.patchFile} after reviewing it` },
  );
}

/** A `UserError` whose hint also says how to apply the patch by hand. */
function withManualRoute(error: unknown, req: ApplyRequest): unknown {
  if (!(error instanceof UserError)) return error;
  const manual = `apply it yourself with git apply ${req.patchFile}`;
  const hint = error.hint
    ? `${error.hint}; or ${manual}`
    : manual[0].toUpperCase() + manual.slice(1);
  return new UserError(error.message, { hint, exitCode: error.exitCode, cause: error });
}

function refusal(req: ApplyRequest, refused: string[]): UserError {
  return new UserError(
    `Did not apply the patch of ${req.label}: it touches paths the arena never writes: ` +
      refused.join(", "),
    {
      hint: `Review ${req.patchFile} and apply what you trust of it yourself, or run the ` +
        "arena again",
    },
  );
}

function conflict(req: ApplyRequest, gitSaid: string, notRestored: string[]): UserError {
  const changed = notRestored.length === 0
    ? "nothing was changed"
    : `it stopped midway, and these could not be put back as they were: ${notRestored.join(", ")}`;
  return new UserError(
    `The patch of ${req.label} does not apply: ${gitSaid}; ${changed}`,
    {
      hint: `Apply it yourself with git apply ${req.patchFile} after resolving, or run the ` +
        "arena again",
    },
  );
}
