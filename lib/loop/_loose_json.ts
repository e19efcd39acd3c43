/**
 * JSON as models write it: parsed as is when valid, repaired with jsonrepair only when the
 * repair cannot change what was meant (quotes, commas, brackets, Python literals), and
 * reported as a problem when it could (the text stops inside a string, or a key has no value).
 */

/** A parsed value, or why the text cannot be read safely. */
export type LooseJson = { value: unknown; repaired: boolean } | { problem: string };

/** Parses `text`, repairing it when that is unambiguous (see the module comment). */
export async function parseLooseJson(text: string): Promise<LooseJson> {
  try {
    return { value: JSON.parse(text), repaired: false };
  } catch (error) {
    const problem = ambiguity(text);
    if (problem) return { problem };
    const { jsonrepair } = await import("jsonrepair");
    try {
      return { value: JSON.parse(jsonrepair(text)), repaired: true };
    } catch {
      return { problem: `they are not valid JSON (${(error as Error).message})` };
    }
  }
}

/** Why repairing `text` would be a guess, if it would be. */
function ambiguity(text: string): string | undefined {
  if (endsInsideString(text)) return "they end inside a string, as if cut off";
  if (/:\s*(?:[,}\]]|$)/.test(outsideStrings(text))) return "a key has no value";
  return undefined;
}

/** Whether a string (in double or single quotes) is still open at the end of `text`. */
function endsInsideString(text: string): boolean {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
  }
  return quote !== undefined;
}

/** `text` with the contents of its strings blanked, so that structure can be matched. */
function outsideStrings(text: string): string {
  let out = "";
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === undefined) {
      if (c === '"' || c === "'") quote = c;
      out += c;
    } else if (c === "\\") {
      out += "__";
      i++;
    } else {
      if (c === quote) quote = undefined;
      out += quote === undefined ? c : "_";
    }
  }
  return out;
}

/**
 * Where the JSON object or array opening at `start` ends (the index after its closing bracket),
 * strings respected; -1 when it is not closed.
 */
export function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
