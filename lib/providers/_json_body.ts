/**
 * A request body as a Blob of small JSON pieces. A long session's body is the whole history, and
 * serializing it as one string leaves a string of that size behind on every request: V8 keeps
 * such large strings until a full collection, so memory grew with every step. Pieces of one
 * array element each are small, short-lived and collected cheaply; the Blob still has a size, so
 * the request goes with a Content-Length, not chunked.
 */

/** `value` as JSON text, identical to `JSON.stringify(value)`, in pieces. */
export function jsonPieces(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) {
    out.push("[");
    value.forEach((item, i) => {
      if (i > 0) out.push(",");
      // As JSON.stringify does: an element that has no JSON form is null.
      out.push(JSON.stringify(item) ?? "null");
    });
    out.push("]");
  } else if (value !== null && typeof value === "object" && !("toJSON" in value)) {
    out.push("{");
    let first = true;
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
      out.push(first ? "" : ",", JSON.stringify(key), ":");
      first = false;
      jsonPieces(item, out);
    }
    out.push("}");
  } else {
    out.push(JSON.stringify(value) ?? "null");
  }
  return out;
}

/**
 * Pieces are sent in runs of about this many characters: few enough parts that the Blob and the
 * send stay cheap, each small enough for V8's ordinary heap (its large-object space starts at
 * 128 KiB), where garbage goes at the next minor collection.
 */
const RUN_CHARS = 32 * 1024;

/** The body to send for `value`: its JSON text in runs of pieces, with a known size. */
export function jsonBody(value: unknown): Blob {
  const runs: string[] = [];
  let run = "";
  for (const piece of jsonPieces(value)) {
    if (run.length + piece.length > RUN_CHARS && run !== "") {
      runs.push(run);
      run = "";
    }
    run += piece;
  }
  if (run !== "") runs.push(run);
  return new Blob(runs, { type: "application/json" });
}
