import type { ParsedReply, ProtocolResult, TextProtocol } from "../types.ts";
import { fill, limitBytes } from "./_text.ts";
import type { ProtocolDefinition } from "./types.ts";

const TOOL = "send_keys";
/** "asked" after a first task_complete; "confirm" once the question was sent. */
const COMPLETE_KEY = "terminus_2.complete";
const WARNINGS_KEY = "terminus_2.warnings";
const MAX_OUTPUT_BYTES = 10_000;
const DEFAULT_DURATION_S = 1;

/**
 * Terminus-2's protocol: each reply is one JSON object `{analysis, plan, commands: [{keystrokes,
 * duration}], task_complete}`, possibly with prose or a code fence around it. The keystrokes go
 * to one lasting terminal; the answer is the terminal's new output (or its screen). A first
 * `task_complete: true` asks for confirmation; a second one ends the turn with the analysis.
 * Messages: `format_error` {error} {warnings}, `warnings` {warnings}, `new_output` {output},
 * `screen` {screen}, `confirm_complete` {screen}.
 */
export const terminus2: ProtocolDefinition = {
  tools: [TOOL],
  messages: {
    format_error: ["error", "warnings"],
    warnings: ["warnings"],
    new_output: ["output"],
    screen: ["screen"],
    confirm_complete: ["screen"],
  },
  create(messages): TextProtocol {
    return {
      parse: (reply, state) => parse(reply, state, messages),
      observation(results, state) {
        const warned = state.get(WARNINGS_KEY) as string | undefined;
        state.delete(WARNINGS_KEY);
        const prefix = warned ? `${fill(messages.warnings, { warnings: warned })}\n` : "";
        if (state.get(COMPLETE_KEY) === "asked") {
          state.set(COMPLETE_KEY, "confirm");
          return prefix + fill(messages.confirm_complete, { screen: lastScreen(results) });
        }
        return prefix + terminalText(results, messages);
      },
    };
  },
};

interface Reply {
  analysis: string;
  commands: Array<{ keystrokes: string; duration: number }>;
  taskComplete: boolean;
}

function parse(
  reply: string,
  state: Map<string, unknown>,
  messages: Record<string, string>,
): ParsedReply {
  const read = readReply(reply);
  const warnings = read.warnings.length ? read.warnings.map((w) => `- ${w}`).join("\n") : null;
  if ("error" in read) {
    return {
      kind: "format_error",
      message: fill(messages.format_error, { error: read.error, warnings }),
    };
  }
  const confirming = state.get(COMPLETE_KEY) === "confirm";
  state.delete(COMPLETE_KEY);
  if (read.reply.taskComplete && confirming) {
    return { kind: "finish", finalText: read.reply.analysis };
  }
  if (read.reply.taskComplete) state.set(COMPLETE_KEY, "asked");
  if (warnings) state.set(WARNINGS_KEY, warnings);
  const commands = read.reply.commands.length
    ? read.reply.commands
    : [{ keystrokes: "", duration: 0 }];
  return {
    kind: "calls",
    calls: commands.map((c) => ({
      name: TOOL,
      args: { keystrokes: c.keystrokes, duration: c.duration },
    })),
  };
}

/** The reply's JSON object checked field by field, with warnings about text around it. */
export function readReply(
  text: string,
): ({ reply: Reply } | { error: string }) & { warnings: string[] } {
  const warnings: string[] = [];
  const span = firstObject(text);
  if (!span) return { error: "No valid JSON found in response", warnings };
  const [start, end] = span;
  if (text.slice(0, start).replace(/```(?:json)?\s*$/, "").trim()) {
    warnings.push("Extra text detected before JSON object");
  }
  if (text.slice(end).replace(/^\s*```/, "").trim()) {
    warnings.push("Extra text detected after JSON object");
  }
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end));
  } catch (err) {
    return { error: `Invalid JSON: ${(err as Error).message}`, warnings };
  }
  const o = value as Record<string, unknown>;
  const missing = ["analysis", "plan", "commands"].filter((k) => !(k in o));
  if (missing.length) return { error: `Missing required fields: ${missing.join(", ")}`, warnings };
  if (!Array.isArray(o.commands)) return { error: "Field 'commands' must be an array", warnings };
  const commands: Reply["commands"] = [];
  for (const [i, c] of o.commands.entries()) {
    const cmd = c as Record<string, unknown> | null;
    if (typeof cmd?.keystrokes !== "string") {
      return { error: `Command ${i + 1} needs a 'keystrokes' string`, warnings };
    }
    const duration = typeof cmd.duration === "number" ? cmd.duration : DEFAULT_DURATION_S;
    commands.push({ keystrokes: cmd.keystrokes, duration });
  }
  const done = o.task_complete;
  const taskComplete = done === true ||
    (typeof done === "string" && ["true", "1", "yes"].includes(done.trim().toLowerCase()));
  return { reply: { analysis: String(o.analysis ?? ""), commands, taskComplete }, warnings };
}

/** Start and end of the first balanced `{…}` in `text`, minding strings and escapes. */
function firstObject(text: string): [number, number] | undefined {
  const start = text.indexOf("{");
  if (start === -1) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return [start, i + 1];
  }
  return undefined;
}

interface Terminal {
  newOutput: string | null;
  screen: string;
}

function terminalOf(result: ProtocolResult): Terminal | undefined {
  const o = result.output as Partial<Terminal> | undefined;
  return !result.isError && typeof o?.screen === "string" ? o as Terminal : undefined;
}

function lastScreen(results: ProtocolResult[]): string {
  return results.map(terminalOf).findLast((t) => t)?.screen ?? "";
}

/**
 * The new output of all the reply's commands as one text (each piece starts with the line the
 * previous one ended on), or the screen when any piece cannot be told apart.
 */
function terminalText(results: ProtocolResult[], messages: Record<string, string>): string {
  const failed = results.filter((r) => r.isError).map((r) => r.text);
  if (failed.length) return failed.join("\n");
  const pieces = results.map(terminalOf);
  if (pieces.some((p) => p?.newOutput == null)) {
    return fill(messages.screen, { screen: limitBytes(lastScreen(results), MAX_OUTPUT_BYTES) });
  }
  let lines: string[] = [];
  for (const piece of pieces) lines = [...lines.slice(0, -1), ...piece!.newOutput!.split("\n")];
  return fill(messages.new_output, { output: limitBytes(lines.join("\n"), MAX_OUTPUT_BYTES) });
}
