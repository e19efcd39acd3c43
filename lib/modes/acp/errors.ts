/**
 * Failures as JSON-RPC errors an editor shows: the message with its hint on the next line, the
 * hint also as `data.hint`; missing credentials as "auth required" (-32000), so that the editor
 * offers to authenticate; bad input as invalid params; a saved session that cannot be found or
 * read as "resource not found" (-32002); anything else as an internal error.
 */
import { RequestError } from "@agentclientprotocol/sdk";
import { AuthError, UsageError, UserError } from "../../errors.ts";
import { SessionError } from "../../session/saved_sessions.ts";

/** `error` as the RequestError the handler answers with. */
function requestErrorOf(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  if (!(error instanceof UserError)) {
    const message = error instanceof Error ? error.message : String(error);
    return new RequestError(-32603, `Internal error: ${message}`);
  }
  const text = error.hint ? `${error.message}\nhint: ${error.hint}` : error.message;
  const data = error.hint ? { hint: error.hint } : undefined;
  if (error instanceof AuthError) return new RequestError(-32000, text, data);
  if (error instanceof UsageError) return new RequestError(-32602, text, data);
  if (error instanceof SessionError) return new RequestError(-32002, text, data);
  return new RequestError(-32603, text, data);
}

/** The session `id` is not open here. */
export function unknownSession(id: string): RequestError {
  return new RequestError(
    -32002,
    `No open session "${id}"\nhint: Open it with session/new or session/load first`,
    { sessionId: id },
  );
}

/** Runs `handler`, its failures turned into RequestErrors. */
export async function guarded<T>(handler: () => T | Promise<T>): Promise<T> {
  try {
    return await handler();
  } catch (error) {
    throw requestErrorOf(error);
  }
}
