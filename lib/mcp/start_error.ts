/**
 * What `managed_server.ts` needs to judge a failure without loading the MCP SDK: the SDK (and
 * the packages it pulls in) loads only when a server is started (`connection.ts`).
 */

/** The SDK's `ErrorCode` values this code tests for (JSON-RPC codes the SDK defines). */
export const MCP_ERROR_CODE = { ConnectionClosed: -32000, RequestTimeout: -32001 } as const;

/** The JSON-RPC code of an SDK error (`McpError.code`), if it has one. */
export function mcpErrorCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === "number" ? code : undefined;
}

/** Why a server did not start; `needsLogin` when it answered 401. */
export class StartError extends Error {
  readonly needsLogin: boolean;
  constructor(message: string, opts: { needsLogin?: boolean; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = "StartError";
    this.needsLogin = opts.needsLogin === true;
  }
}
