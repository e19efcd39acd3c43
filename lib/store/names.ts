/**
 * The names users give sessions (`/rename`): one small JSON file beside the sessions folder,
 * `<home>/session_names.json`, an object from session id to name. Session files are append-only
 * logs, so a name that can change lives here instead; the file is replaced whole through a temp
 * file, so a reader never sees half of it.
 */
import { join } from "node:path";
import { SessionError } from "./errors.ts";
import { UUID_PATTERN } from "./uuid.ts";

/** Most characters a session name may have. */
export const MAX_NAME_CHARS = 80;

const SESSION_ID = new RegExp(`^${UUID_PATTERN.source}$`);

/** The file that holds the names of the sessions under `home`. */
export function sessionNamesFile(home: string): string {
  return join(home, "session_names.json");
}

/**
 * Every session name under `home`, by session id; empty when no session was named. A file that
 * is not such an object is a `SessionError` naming it.
 */
export async function readSessionNames(home: string): Promise<Map<string, string>> {
  const file = sessionNamesFile(home);
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return new Map();
    throw namesError(file, (e as Error).message, e);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw namesError(file, `it is not JSON (${(e as Error).message})`, e);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw namesError(file, "it is not an object of session ids and names");
  }
  const names = new Map<string, string>();
  for (const [id, name] of Object.entries(value)) {
    if (!SESSION_ID.test(id) || typeof name !== "string") {
      throw namesError(file, `the entry ${JSON.stringify(id)} is not a session id and a name`);
    }
    names.set(id, name);
  }
  return names;
}

/** The checked form of a name the user typed: trimmed, one line, at most `MAX_NAME_CHARS`. */
export function checkSessionName(name: string): string {
  const trimmed = name.trim();
  const fail = (why: string, hint: string) =>
    new SessionError(`Cannot name a session ${JSON.stringify(name)}: ${why}`, { hint });
  if (trimmed === "") throw fail("the name is empty", "Give a name, such as /rename fix-login");
  if (/\p{Cc}/u.test(trimmed)) {
    throw fail("it holds control characters", "Use a name of one line of plain text");
  }
  if ([...trimmed].length > MAX_NAME_CHARS) {
    throw fail(`it is longer than ${MAX_NAME_CHARS} characters`, "Use a shorter name");
  }
  return trimmed;
}

/**
 * Gives session `id` the name `name` (checked with `checkSessionName`), or takes its name away
 * when `name` is undefined. Returns the name as saved.
 */
export async function setSessionName(
  home: string,
  id: string,
  name: string | undefined,
): Promise<string | undefined> {
  if (!SESSION_ID.test(id)) throw new TypeError(`Not a session id: "${id}"`);
  const checked = name === undefined ? undefined : checkSessionName(name);
  const names = await readSessionNames(home);
  if (checked === undefined) names.delete(id);
  else names.set(id, checked);
  await replaceFile(sessionNamesFile(home), JSON.stringify(Object.fromEntries(names), null, 2));
  return checked;
}

/** Writes `text` to a temp file beside `file` (mode 0600), then renames it over `file`. */
async function replaceFile(file: string, text: string): Promise<void> {
  await Deno.mkdir(join(file, ".."), { recursive: true, mode: 0o700 });
  const temp = `${file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(temp, `${text}\n`, { createNew: true, mode: 0o600 });
    await Deno.rename(temp, file);
  } catch (e) {
    await Deno.remove(temp).catch(() => {});
    throw new SessionError(`Cannot save the session name in "${file}": ${(e as Error).message}`, {
      file,
      cause: e,
      hint: "Check that the interpreter home is writable",
    });
  }
}

function namesError(file: string, why: string, cause?: unknown): SessionError {
  return new SessionError(`Cannot read the session names in "${file}": ${why}`, {
    file,
    cause,
    hint: "Fix the file or delete it (it holds only the names given with /rename)",
  });
}
