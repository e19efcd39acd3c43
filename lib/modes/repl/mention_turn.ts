/**
 * A prompt typed at the REPL, sent with what goes with it (issue 34 §3): the images `/image`
 * attached, the image a whole prompt names when it is a pasted or dropped image path, and the
 * files, images and folders its `@path` mentions name (`~` too, in the REPL only). Loaded at the
 * first typed prompt; each note (a mention left as typed, a file cut) is shown dim.
 */
import { terminalText } from "../../approval/visible.ts";
import type { Block } from "../../model/message.ts";
import type { PromptOutcome, Session } from "../../session/types.ts";
import type { Style } from "../term/style.ts";
import { droppedImage, takeAttached } from "./image_command.ts";

/** Where notes go. */
export interface TurnView {
  transcript: { lines(lines: string[]): void };
  style: Style;
}

/** Runs the turn of the typed prompt `line`, with its attachments and mentions. */
export async function turn(
  session: Session,
  line: string,
  signal: AbortSignal,
  view: TurnView,
): Promise<PromptOutcome> {
  const attached = takeAttached(session);
  const dropped = attached.length ? null : await droppedImage(line);
  const notes: string[] = [];
  let typed: Block[] = [{ type: "text", text: line }];
  if (dropped) {
    attached.push(dropped);
  } else if (line.includes("@")) {
    const expanded = await session.commands.mentions(line, { home: true });
    typed = expanded.blocks;
    notes.push(...expanded.notes);
  }
  if (attached.length) {
    notes.push(`with ${attached.map((a) => a.name).join(", ")}`);
  }
  if (notes.length) {
    view.transcript.lines(notes.map((n) => view.style.dim(`  ${terminalText(n)}`)));
  }
  if (typed.length === 1 && attached.length === 0) return await session.prompt(line, signal);
  return await session.prompt([...typed, ...attached.map((a) => a.block)], signal);
}
