import type { ProtocolResult, TextProtocol } from "../types.ts";
import { fill, proseOf } from "./_text.ts";
import type { ProtocolDefinition } from "./types.ts";

/** First output lines that end the task; what follows is the final answer. */
const SUBMIT_SENTINELS: readonly string[] = Object.freeze([
  "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT",
  "MINI_SWE_AGENT_FINAL_OUTPUT",
]);
/** Outputs longer than this are shown as head and tail. */
const MAX_OUTPUT_CHARS = 10_000;
const KEEP_CHARS = 5_000;
const PROSE_KEY = "mini_swe_agent.prose";
const BLOCK = /```(?:bash|mswea_bash_command)[ \t]*\n([\s\S]*?)\n?```/g;

/**
 * mini-swe-agent's protocol: each reply holds exactly one ```bash block, run in a fresh shell.
 * The observation is `observation` ({returncode} {output}), or `observation_long` for output
 * over 10,000 characters ({output_head} and {output_tail}, 5,000 each, and {elided_chars}), or
 * `timeout` ({command} {output}); each may use {json}, the tool-call form's JSON object. The
 * task ends when a command's output starts with the submit sentinel; the rest of the output is
 * the final text. `format_error` has {problem} and {count} (code blocks found).
 */
export const miniSweAgent: ProtocolDefinition = {
  tools: ["bash"],
  messages: {
    format_error: ["problem", "count"],
    observation: ["returncode", "output", "json"],
    observation_long: ["returncode", "output_head", "output_tail", "elided_chars", "json"],
    timeout: ["command", "output", "json"],
  },
  create(messages): TextProtocol {
    return {
      parse(reply, state) {
        const blocks = [...reply.matchAll(BLOCK)];
        if (blocks.length !== 1) {
          const problem = blocks.length === 0
            ? "your reply has no bash code block"
            : `your reply has ${blocks.length} bash code blocks`;
          const count = String(blocks.length);
          return { kind: "format_error", message: fill(messages.format_error, { problem, count }) };
        }
        const [block] = blocks;
        state.set(PROSE_KEY, proseOf(reply, [[block.index, block.index + block[0].length]]));
        return { kind: "calls", calls: [{ name: "bash", args: { command: block[1] } }] };
      },
      observation(results, state) {
        const result = results[0];
        const submitted = submission(result);
        if (submitted !== undefined) {
          return { kind: "finish", finalText: submitted || String(state.get(PROSE_KEY) ?? "") };
        }
        return observationText(result, messages);
      },
    };
  },
};

interface ShellOutput {
  command?: string;
  exitCode: number | null;
  output: string;
  timedOut?: boolean;
  timeoutMs?: number;
}

function shellOutput(result: ProtocolResult): ShellOutput | undefined {
  const o = result.output as Partial<ShellOutput> | undefined;
  return !result.isError && typeof o?.output === "string" ? o as ShellOutput : undefined;
}

/** The text after the sentinel when the output starts with one, else undefined. */
function submission(result: ProtocolResult): string | undefined {
  const out = shellOutput(result);
  if (!out) return undefined;
  const [first, ...rest] = out.output.trimStart().split("\n");
  return SUBMIT_SENTINELS.includes(first.trim()) ? rest.join("\n").trim() : undefined;
}

/** The observation in the harness's messages: short, long (head and tail) or timed out. */
function observationText(result: ProtocolResult, messages: Record<string, string>): string {
  const out = shellOutput(result);
  const text = out?.output ?? result.text;
  const json = observationJson(result);
  if (out?.timedOut) {
    return fill(messages.timeout, { command: out.command ?? "", output: text, json });
  }
  const returncode = String(out?.exitCode ?? -1);
  // The text form switches at 10,000 characters; the JSON form only above them.
  if (text.length < MAX_OUTPUT_CHARS) {
    return fill(messages.observation, { returncode, output: text, json });
  }
  return fill(messages.observation_long, {
    returncode,
    output_head: text.slice(0, KEEP_CHARS),
    output_tail: text.slice(-KEEP_CHARS),
    elided_chars: String(text.length - 2 * KEEP_CHARS),
    json,
  });
}

/** The result as the tool-call form's pretty JSON, with <, >, & and ' escaped. */
export function observationJson(result: ProtocolResult): string {
  const out = shellOutput(result);
  const body: Record<string, unknown> = { returncode: out?.exitCode ?? -1 };
  const text = out?.output ?? result.text;
  if (text.length > MAX_OUTPUT_CHARS) {
    body.output_head = text.slice(0, KEEP_CHARS);
    body.output_tail = text.slice(-KEEP_CHARS);
    body.elided_chars = text.length - 2 * KEEP_CHARS;
    body.warning = "Output too long.";
  } else {
    body.output = text;
  }
  if (out?.timedOut) {
    body.exception_info = `An error occurred while executing the command: Command '${
      out.command ?? ""
    }' timed out after ${(out.timeoutMs ?? 0) / 1000} seconds`;
  }
  return JSON.stringify(body, null, 2).replace(
    /[<>&']/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
