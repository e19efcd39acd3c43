// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import type { Block } from "../../model/message.ts";
import type { ExecOptions } from "./exec_options.ts";
import { imagePaths, readImages } from "./exec_images.ts";
import { outputPlaceFor } from "../../session/run_outputs.ts";
import { readOutputSchema } from "../../session/structured_output.ts";
import {
  execStatusLine,
  finishExec,
  jsonEvents,
  jsonStreamOf,
  progress,
  readExecPrompt,
  withInterrupt,
} from "./exec_turn.ts";
import { ttyApprover } from "./approve_tty.ts";
import { terminalText } from "../../approval/visible.ts";
import { writeExecTrajectory } from "./exec_trajectory.ts";
import { recordedArtifactLines } from "../../session/artifact_store.ts";
import { countEvent, emptyRunCounts } from "../../trajectory/run_counts.ts";
import {
  openSession,
  reconfigured,
  resolveOpening,
  type SessionConfig,
} from "../../session/open.ts";

/**
 * `interpreter exec` and `exec resume`: runs one task to completion. Progress goes to stderr and
 * the answer to stdout, or with `--json` every event to stdout as JSONL.
 */
export async function runExec(
  argument: string | undefined,
  config: SessionConfig,
  options: ExecOptions,
): Promise<number> {
  const env = Deno.env.toObject();
  // The trust check and the saved session's lookup come first: a wrong id fails at once, before
  // the prompt is read from stdin.
  const opening = await resolveOpening({ config, env, startCommand: "interpreter exec PROMPT" });
  if (options.review) {
    const { runExecReview } = await import("./review_exec.ts");
    return await runExecReview(options.review, { opening, env, options });
  }
  // Files are read before the turn: the Codex SDK deletes the schema file after it.
  const schema = options.outputSchema ? await readOutputSchema(options.outputSchema) : undefined;
  const images = await readImages(imagePaths(options.images));
  // A resumed session takes its prompt as given, with no <stdin> block appended.
  const prompt = opening.resumed && argument !== undefined && argument !== "-"
    ? argument
    : await readExecPrompt(argument);
  const json = jsonStreamOf(options);
  const interactive = Deno.stdin.isTerminal() && Deno.stderr.isTerminal();
  // Without a sandbox and without anyone to approve, no command could run: stop before asking.
  const required = reconfigured(opening, { requireSandbox: true });
  const counts = emptyRunCounts();
  const show = json ? jsonEvents(json) : progress(env);
  await using session = await openSession(
    required,
    {
      onEvent: (event) => {
        countEvent(counts, event);
        show(event);
      },
      approve: interactive ? ttyApprover() : undefined,
    },
    { env },
  );
  // `@path` mentions attach files (exec_mentions.ts, loaded only when the prompt has an `@`).
  const typed = async (): Promise<Block[]> =>
    prompt.includes("@")
      ? await (await import("./exec_mentions.ts")).mentionBlocks(session, prompt, argument)
      : [{ type: "text", text: prompt }];
  const { value: outcome, stoppedBy } = await withInterrupt(async (signal) => {
    json?.threadStarted(session.id);
    json?.turnStarted();
    // A prompt that starts with a custom command's exact name runs it (exec_command.ts).
    const first = prompt.startsWith("/")
      ? await (await import("./exec_command.ts")).execPrompt(session, prompt, signal, {
        before: images,
        typed,
        outputSchema: schema,
      })
      : await session.prompt([...images, ...await typed()], signal, { outputSchema: schema });
    if (!options.waitWakeups) return first;
    const { runWakeups } = await import("./exec_wakeups.ts");
    return await runWakeups(session, first, signal, json);
  }).catch(async (error) => {
    if (options.trajectory) {
      await writeExecTrajectory(options.trajectory, session, { error, counts }, env);
    }
    throw error;
  });
  if (options.trajectory) {
    await writeExecTrajectory(options.trajectory, session, { outcome, stoppedBy, counts }, env);
  }
  if (session.status().timers) {
    (await import("./exec_wakeups.ts")).listPending(session, options.waitWakeups === true);
  }
  for (const line of await recordedArtifactLines(session)) console.error(terminalText(line));
  const { outputLastMessage } = options;
  return await finishExec(outcome, {
    json,
    usage: session.usage,
    stoppedBy,
    outputLastMessage,
    outputPlace: outputPlaceFor(session, env),
    statusLine: execStatusLine(session, env),
  });
}
