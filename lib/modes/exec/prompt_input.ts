import { UserError } from "../../errors.ts";

/** Where the prompt text can come from; a parameter so tests need no real terminal. */
export interface PromptSource {
  argument?: string;
  stdinIsTerminal: boolean;
  readStdin: () => Promise<string>;
  note: (line: string) => void;
}

/**
 * Resolves the exec prompt by Codex's rules: the argument, stdin when it is not a terminal
 * (appended in a `<stdin>` block when both are given), or stdin alone for `-`.
 */
export async function readPrompt(source: PromptSource): Promise<string> {
  const { argument, stdinIsTerminal } = source;
  if (argument === "-") return await stdinOnly(source, "Reading prompt from stdin...");
  if (argument !== undefined) {
    if (stdinIsTerminal) return argument;
    const extra = await source.readStdin();
    if (extra.trim() === "") return argument;
    source.note("Reading additional input from stdin...");
    const body = extra.endsWith("\n") ? extra : `${extra}\n`;
    return `${argument}\n\n<stdin>\n${body}</stdin>`;
  }
  if (stdinIsTerminal) {
    throw new UserError("No prompt provided", {
      hint:
        'Give the task as an argument (interpreter exec "fix the failing test") or pipe it into stdin',
    });
  }
  return await stdinOnly(source, "Reading prompt from stdin...");
}

async function stdinOnly(source: PromptSource, note: string): Promise<string> {
  source.note(note);
  const text = await source.readStdin();
  if (text.trim() === "") {
    throw new UserError("No prompt provided via stdin", {
      hint: "Pipe the task into stdin, or pass it as an argument",
    });
  }
  return text;
}

/** Reads all of standard input as text. */
export async function readAllStdin(): Promise<string> {
  return await new Response(Deno.stdin.readable).text();
}
