import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability } from "./capability.ts";
import { htmlToText } from "./_html_text.ts";
import { guardedFetch, type GuardedResponse } from "./_fetch_guard.ts";

/** Timeout used when the call gives none. */
const DEFAULT_FETCH_TIMEOUT_S = 30;
/** Longest timeout a call may ask for. */
const MAX_FETCH_TIMEOUT_S = 120;
/** Bytes of the response body read at most; the rest is dropped and `truncated` set. */
export const MAX_FETCH_BYTES = 5 * 1024 * 1024;
/** Characters of converted content returned at most. */
const MAX_CONTENT_CHARS = 100_000;

const URL_IN_TEXT = /https?:\/\/[^\s<>"'`)\]]+/;

/**
 * Input of `web.fetch`. Harness mapping: Claude `WebFetch` {url, prompt}; opencode `webfetch`
 * {url, format, timeout (seconds) → timeout_s}; Kimi `FetchURL` {url}; Gemini `web_fetch`
 * {prompt}, whose URL is written inside the prompt: without `url`, the first http(s) URL in
 * `prompt` is fetched.
 */
export const webFetchInput = z.object({
  url: z.string().min(1).optional().describe("http or https URL to fetch"),
  prompt: z.string().optional()
    .describe("What to look for in the page; returned with the content for the model to apply"),
  format: z.enum(["markdown", "text", "html"]).optional()
    .describe("How to return an HTML page; default markdown"),
  timeout_s: z.number().positive().optional().describe("Give up after this many seconds"),
});

/** Result of `web.fetch`. */
export interface WebFetchOutput {
  url: string;
  /** The URL after redirects. */
  finalUrl: string;
  status: number;
  contentType: string;
  format: "markdown" | "text" | "html";
  /** The page, converted to `format` when it is HTML, as received otherwise. */
  content: string;
  /** Bytes of body read. */
  bytes: number;
  /** True when the body or the converted content was cut at its cap. */
  truncated: boolean;
  prompt: string | undefined;
}

/**
 * Fetches a URL and returns its content as text; refused when the sandbox has no network, and
 * for this machine and private networks unless `web_fetch.allowed_hosts` lists the host.
 */
export const webFetch = defineCapability({
  id: "web.fetch",
  input: webFetchInput,
  mutates: false,
  async run(input, ctx): Promise<WebFetchOutput> {
    if (ctx.networkAllowed !== true) {
      throw new ToolError(
        "Web fetch is disabled: the sandbox has no network access",
        "The user can allow network access with " +
          "`-c sandbox_workspace_write.network_access=true`, or " +
          "`network_access = true` under [sandbox_workspace_write] in config.toml",
      );
    }
    const url = targetUrl(input.url, input.prompt);
    const format = input.format ?? "markdown";
    const timeoutS = Math.min(input.timeout_s ?? DEFAULT_FETCH_TIMEOUT_S, MAX_FETCH_TIMEOUT_S);
    const timeout = AbortSignal.timeout(timeoutS * 1000);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    let fetched: GuardedResponse;
    try {
      const init = { signal, headers: ACCEPT_HEADERS };
      fetched = await guardedFetch(url, { net: ctx.webFetch ?? {}, init });
    } catch (err) {
      throw fetchFailure(url.href, err, ctx.signal, timeout, timeoutS);
    }
    const { response } = fetched;
    let body: { bytes: Uint8Array; truncated: boolean };
    try {
      if (!response.ok) {
        await response.body?.cancel();
        throw new ToolError(
          `Cannot fetch "${url.href}": HTTP ${response.status} ${response.statusText}`.trim(),
          response.status === 404 ? "Check the URL" : "",
        );
      }
      body = await readCapped(response, MAX_FETCH_BYTES);
    } catch (err) {
      throw fetchFailure(url.href, err, ctx.signal, timeout, timeoutS);
    } finally {
      fetched.close();
    }
    const contentType = response.headers.get("content-type") ?? "";
    let content = decodeBody(url.href, body.bytes, contentType);
    if (format !== "html" && isHtml(contentType, content)) {
      content = await htmlToText(content, format);
    }
    const cut = content.length > MAX_CONTENT_CHARS;
    return {
      url: url.href,
      finalUrl: fetched.url.href,
      status: response.status,
      contentType,
      format,
      content: cut ? content.slice(0, MAX_CONTENT_CHARS) : content,
      bytes: body.bytes.length,
      truncated: body.truncated || cut,
      prompt: input.prompt,
    };
  },
});

const ACCEPT_HEADERS = {
  "accept": "text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.5",
  "user-agent": "interpreter (web.fetch)",
};

function targetUrl(given: string | undefined, prompt: string | undefined): URL {
  const text = given ?? prompt?.match(URL_IN_TEXT)?.[0];
  if (text === undefined) {
    throw new ToolError(
      "Cannot fetch: no URL given",
      "Pass a full http:// or https:// URL",
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ToolError(`Cannot fetch "${text}": not a valid URL`, "Pass a full https:// URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ToolError(
      `Cannot fetch "${text}": only http and https URLs are supported`,
      "Pass an http:// or https:// URL",
    );
  }
  return url;
}

function fetchFailure(
  url: string,
  err: unknown,
  callSignal: AbortSignal,
  timeout: AbortSignal,
  timeoutS: number,
): unknown {
  if (err instanceof ToolError) return err;
  if (callSignal.aborted) return callSignal.reason ?? err;
  if (timeout.aborted) {
    return new ToolError(
      `Cannot fetch "${url}": no complete response within ${timeoutS} s`,
      "Try again, or give a longer timeout",
    );
  }
  const cause = (err as Error).cause;
  const detail = cause instanceof Error ? `: ${cause.message}` : "";
  return new ToolError(`Cannot fetch "${url}": ${(err as Error).message ?? String(err)}${detail}`);
}

async function readCapped(
  response: Response,
  cap: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!response.body) return { bytes: new Uint8Array(), truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  const reader = response.body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    const room = cap - size;
    chunks.push(r.value.length > room ? r.value.subarray(0, room) : r.value);
    size += Math.min(r.value.length, room);
    if (r.value.length >= room) {
      truncated = r.value.length > room;
      if (!truncated) truncated = !(await reader.read()).done;
      await reader.cancel().catch(() => {});
      break;
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { bytes, truncated };
}

function decodeBody(url: string, bytes: Uint8Array, contentType: string): string {
  const type = contentType.split(";")[0].trim().toLowerCase();
  const textual = type === "" || type.startsWith("text/") || /json|xml|javascript|yaml/.test(type);
  if (!textual) {
    throw new ToolError(
      `Cannot fetch "${url}": the response is "${type}", not text`,
      "Fetch an HTML or text page",
    );
  }
  const charset = /charset=([^;]+)/i.exec(contentType)?.[1]?.trim().replace(/"/g, "");
  try {
    return new TextDecoder(charset || "utf-8").decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}

function isHtml(contentType: string, content: string): boolean {
  if (/html/i.test(contentType)) return true;
  return contentType === "" && /^\s*(<!doctype html|<html)/i.test(content);
}
