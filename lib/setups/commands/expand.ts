/**
 * Turns a custom command and the arguments typed after it into the prompt to send: arguments
 * filled in, shell pre-execution run (through `deps.runShell`, which runs it as any command of
 * the model: sandbox, approval policy, hooks) and its output put in, mentioned files put in.
 * Mentions expand once, only in the text the file or the user wrote, never in a command's
 * output. A problem (a missing argument, a missing file, a refused or failed command) is a
 * `CommandError` naming the command's file and line.
 */
import { UserError } from "../../errors.ts";
import { namedArgs, splitArgs } from "./args.ts";
import { codexNames, fillPlaceholders, type Invocation, usesArguments } from "./placeholders.ts";
import { type Segment, segmentsOf } from "./segments.ts";
import type { CustomCommand } from "./types.ts";

/** A custom command could not be expanded; nothing was sent. */
export class CommandError extends UserError {}

/** How a shell pre-execution ended. */
export interface ShellRun {
  /** stdout and stderr together. */
  output: string;
  exitCode: number | null;
  /** Why it did not run (approval refused, a hook denied it). */
  refused?: string;
}

/** What expansion runs and reads through. */
export interface ExpandDeps {
  runShell(command: string): Promise<ShellRun>;
  /** The content of a mentioned path (a folder: the list of its files); throws why not. */
  readMention(path: string): Promise<string>;
}

/** The prompt `command` invoked with `rawArgs` stands for. */
export async function expandCommand(
  command: CustomCommand,
  rawArgs: string,
  deps: ExpandDeps,
): Promise<string> {
  const words = splitArgs(rawArgs);
  const args: Invocation = { raw: rawArgs.trim(), words, named: namedArgs(words) };
  if (command.syntax === "codex") checkCodexNames(command, args);
  let segments: Segment[];
  try {
    segments = segmentsOf(command.body, command.syntax);
  } catch (error) {
    throw new CommandError(`/${command.name} (${command.source}): ${(error as Error).message}`, {
      hint: "Close every !{ with a }",
    });
  }
  const attached: string[] = [];
  let prompt = "";
  for (const segment of segments) {
    prompt += segment.type === "shell"
      ? await runSegment(command, segment, args, deps)
      : await textSegment(command, segment, args, { deps, attached });
  }
  const full = withArguments(command, prompt, args);
  return attached.length ? full.trimEnd() + attached.join("") : full;
}

/** Codex refuses a prompt whose named arguments are not all given as KEY=value. */
function checkCodexNames(command: CustomCommand, args: Invocation): void {
  const missing = codexNames(command.body).filter((n) => !args.named.has(n));
  if (missing.length === 0) return;
  throw new CommandError(`Missing required args for /${command.name}: ${missing.join(", ")}`, {
    hint: `Give them as KEY=value: /${command.name} ${missing.map((n) => `${n}=...`).join(" ")}` +
      ` (${command.source})`,
  });
}

/** The prompt with the arguments appended where the text took none, as each vendor does. */
function withArguments(command: CustomCommand, prompt: string, args: Invocation): string {
  if (args.raw === "" || usesArguments(command.body, command)) return prompt;
  if (command.syntax === "claude") return `${prompt.trimEnd()}\n\nARGUMENTS: ${args.raw}`;
  if (command.syntax === "gemini") return `${prompt}\n\n/${command.name} ${args.raw}`;
  return `${prompt.trimEnd()}\n\n${args.raw}`;
}

function where(command: CustomCommand, line: number): string {
  return `${command.source}, line ${command.bodyLine + line}`;
}

async function runSegment(
  command: CustomCommand,
  segment: Extract<Segment, { type: "shell" }>,
  args: Invocation,
  deps: ExpandDeps,
): Promise<string> {
  const line = fillPlaceholders(segment.command, command, args, true);
  const run = await deps.runShell(line);
  if (run.refused !== undefined) {
    throw new CommandError(
      `/${command.name} (${where(command, segment.line)}): the command \`${line}\` was ` +
        `refused: ${run.refused}`,
      { hint: "Nothing was sent. Allow the command (approval policy, allowed-tools) or edit it" },
    );
  }
  const output = run.output.replace(/\n+$/, "");
  if (command.syntax === "gemini") {
    return run.exitCode === 0
      ? output
      : `${output}\n[Shell command exited with code ${run.exitCode}]`;
  }
  if (command.syntax === "claude" && !claudeAccepts(line, run.exitCode)) {
    throw new CommandError(
      `/${command.name} (${where(command, segment.line)}): the command \`${line}\` failed ` +
        `(exit code ${run.exitCode ?? "none: it was stopped"}):\n${output.slice(-2000)}`,
      { hint: "Nothing was sent. Fix the command in the file, or what it needs" },
    );
  }
  return output;
}

/** Claude Code stops on a failed command, but exit 1 of a search or compare tool. */
function claudeAccepts(line: string, code: number | null): boolean {
  if (code === 0) return true;
  return code === 1 && /^(grep|rg|egrep|fgrep|diff|cmp|test|git diff)\b/.test(line.trim());
}

/** A piece of text with the arguments filled and its mentions expanded. */
async function textSegment(
  command: CustomCommand,
  segment: Extract<Segment, { type: "text" }>,
  args: Invocation,
  out: { deps: ExpandDeps; attached: string[] },
): Promise<string> {
  if (command.syntax === "gemini") {
    // Gemini CLI expands @{path} in the file's text before the arguments go in.
    const read = await mapAsync(segment.text, /@\{([^}]+)\}/g, async (m) => {
      return await mention(command, segment, m[0], m[1].trim(), out.deps);
    });
    return fillPlaceholders(read, command, args);
  }
  const text = fillPlaceholders(segment.text, command, args);
  if (command.syntax === "codex") return text;
  for (const m of text.matchAll(/(?<=^|\s)@([^\s`'"<>]*?[./][^\s`'"<>]*?)(?=[.,;:!?)]*(\s|$))/g)) {
    const content = await mention(command, segment, m[0], m[1], out.deps);
    out.attached.push(`\n\n<file path="${m[1]}">\n${content.replace(/\n$/, "")}\n</file>`);
  }
  return text;
}

async function mention(
  command: CustomCommand,
  segment: Extract<Segment, { type: "text" }>,
  token: string,
  path: string,
  deps: ExpandDeps,
): Promise<string> {
  try {
    return await deps.readMention(path);
  } catch (error) {
    const index = segment.text.indexOf(token);
    const place = index < 0
      ? `${command.source}, in the arguments`
      : where(command, segment.line + segment.text.slice(0, index).split("\n").length - 1);
    throw new CommandError(
      `/${command.name} (${place}): cannot put in ${token}: ${(error as Error).message}`,
      { hint: "Name a file inside the workspace, or fix the path" },
    );
  }
}

async function mapAsync(
  text: string,
  pattern: RegExp,
  replace: (m: RegExpMatchArray) => Promise<string>,
): Promise<string> {
  let out = "";
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    out += text.slice(last, m.index) + await replace(m);
    last = m.index! + m[0].length;
  }
  return out + text.slice(last);
}
