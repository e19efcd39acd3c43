/** The REPL's message history in `<home>/history.jsonl`: one `{ts, session_id, text}` a line. */
import { join } from "node:path";
import { HOME_FILE_MODE, makeHomeDir } from "../../config/home.ts";

/** How many earlier messages line editing offers. */
const KEEP = 1000;

/** The saved messages, newest first; none when the file is missing or unreadable. */
export async function loadHistory(home: string): Promise<string[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(join(home, "history.jsonl"));
  } catch {
    return [];
  }
  const texts: string[] = [];
  for (const line of text.split("\n").slice(-KEEP - 1)) {
    try {
      const entry = JSON.parse(line);
      if (typeof entry?.text === "string") texts.push(entry.text);
    } catch {
      // A torn last line from a killed process is skipped.
    }
  }
  return texts.reverse();
}

/** Appends one message; a failure to save is not worth stopping the session for. */
export async function saveHistory(
  home: string,
  entry: { text: string; sessionId?: string },
): Promise<void> {
  const line = JSON.stringify({
    ts: Math.floor(Date.now() / 1000),
    session_id: entry.sessionId,
    text: entry.text,
  });
  try {
    await makeHomeDir(home);
    await Deno.writeTextFile(join(home, "history.jsonl"), line + "\n", {
      append: true,
      mode: HOME_FILE_MODE,
    });
  } catch {
    // Read-only home: the session goes on without saved history.
  }
}
