import type { ModelRequest } from "../model/message.ts";

/** What a user can set over a harness's request settings, and the session id they may use. */
export type RequestOptions = Pick<
  ModelRequest,
  | "thinking"
  | "reasoningSummary"
  | "verbosity"
  | "webSearch"
  | "maxOutputTokens"
  | "maxOutputCap"
  | "sessionId"
  | "sessionHash"
  | "vendorClientHeaders"
  | "appVersion"
>;
