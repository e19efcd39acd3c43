/**
 * What the first request of a session costs before the user's words, for a harness's full and
 * lean surfaces (`interpreter debug harness ID --tokens`): the system prompt and the context
 * around the first prompt (rendered with sample values), and the tool declarations as the
 * harness's first wire API sends them. The caller gives the counter; the session is taken to have
 * no MCP servers.
 */
import { renderContext, type SessionContext } from "../harness/context.ts";
import { advertisedTools } from "../harness/deferred.ts";
import { leanView } from "../harness/lean.ts";
import { toolsForSession } from "../harness/session_tools.ts";
import type { Harness, PromptVars } from "../harness/types.ts";
import { type Block, type Message, textOf, type ToolDeclaration } from "../model/message.ts";
import type { WireApi } from "../providers/types.ts";

/** Typical values, so that templates render at a realistic size. */
const SAMPLE_VARS: PromptVars = {
  cwd: "/home/user/projects/example-app",
  date: "2026-01-15",
  platform: "linux x86_64",
  shell: "/bin/bash",
  model: "example-model",
  gitStatus: "## main...origin/main\n M src/app.ts",
  agentsMd: "",
  sandbox: "Commands run in a sandbox with write access to the workspace only.",
};

/** The sizes of one surface's first request. */
export interface SurfaceTokens {
  promptTokens: number;
  toolTokens: number;
  /** Tool declarations sent (none for a text protocol, which sends no tools). */
  tools: number;
}

/** Counts text as tokens. */
export type TokenCounter = (text: string) => number;

/** The first request's tokens of `h`'s full surface, and of its lean one when it has `[lean]`. */
export async function firstRequestTokens(
  h: Harness,
  count: TokenCounter,
): Promise<{ full: SurfaceTokens; lean?: SurfaceTokens }> {
  // As in a session without MCP servers.
  const session = (view: Harness) => toolsForSession(view, { mcpServers: false });
  const full = await surfaceTokens(session(h), count);
  if (!h.lean) return { full };
  return { full, lean: await surfaceTokens(session(leanView(h, "lean = true")), count) };
}

async function surfaceTokens(h: Harness, count: TokenCounter): Promise<SurfaceTokens> {
  const prompt = contextTexts(renderContext(h, SAMPLE_VARS)).join("\n\n");
  const sent = h.protocol ? [] : advertisedTools(h, new Map());
  const json = sent.length > 0 ? JSON.stringify(await wireTools(h.wireApis[0], sent)) : "";
  return { promptTokens: count(prompt), toolTokens: json ? count(json) : 0, tools: sent.length };
}

/** Every text the context puts in the first request besides the prompt itself. */
function contextTexts(ctx: SessionContext): string[] {
  const blocks = (list: Block[]) => list.map((b) => textOf([b]));
  const messages = (list: Message[]) => list.flatMap((m) => blocks(m.blocks));
  return [
    ...ctx.system.map((p) => p.text),
    ...messages(ctx.before),
    ...blocks(ctx.firstUser),
    ...blocks(ctx.around?.before ?? []),
    ctx.turnPrefix,
    ...blocks(ctx.around?.after ?? []),
    ...messages(ctx.after),
    ...blocks(ctx.everyUser),
  ].filter((t) => t.trim() !== "");
}

/** `body.tools` of the wire adapter's request for `tools`. */
async function wireTools(wire: WireApi, tools: ToolDeclaration[]): Promise<unknown> {
  const request = { model: "m", system: [], messages: [], tools };
  const settings = { compat: {} };
  const body = wire === "messages"
    ? (await import("../providers/anthropic_messages.ts")).toWire(request, settings)
    : wire === "responses"
    ? (await import("../providers/openai_responses.ts")).toWire(request, settings)
    : wire === "gemini"
    ? (await import("../providers/gemini_request.ts")).toWire(request, settings)
    : (await import("../providers/openai_chat.ts")).toWire(request, settings);
  return body.tools ?? [];
}
