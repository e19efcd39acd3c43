/**
 * One approval question as every front end shows it (the REPL, exec's terminal prompt, an ACP
 * permission request, the MCP server's elicitation): what would run or change, where, why, and
 * the answers offered. The texts are the model's and the repository's, as they are: a terminal
 * front end makes control characters visible before it prints them.
 */
import { resolve } from "node:path";
import type { ApprovalAnswer, ApprovalAsk } from "../../approval/hook.ts";
import { proposedChanges } from "./proposed_changes.ts";
import type { FileChangeView, ToolView } from "./tool_view_types.ts";

/** One answer an approval question offers. */
export interface ApprovalOption {
  answer: ApprovalAnswer;
  /** Its id in an ACP permission request (the OI fork's ids). */
  id: "accept" | "acceptForSession" | "decline";
  /** Its label in an editor. */
  label: string;
  /** The letter a terminal reads for it, and what the answer line says of it. */
  key: "y" | "a" | "n";
  keyLabel: string;
}

/** The longest command a heading holds; a longer one is shown on lines of its own. */
const HEADING_COMMAND_CHARS = 100;

/** The answers, in the order they are offered. */
export const APPROVAL_OPTIONS: readonly ApprovalOption[] = Object.freeze([
  { answer: "once", id: "accept", label: "Allow once", key: "y", keyLabel: "yes once" },
  {
    answer: "session",
    id: "acceptForSession",
    label: "Allow for this session",
    key: "a",
    keyLabel: "yes for this session",
  },
  { answer: "deny", id: "decline", label: "Reject", key: "n", keyLabel: "no (a note may follow)" },
]);

/** What an approval question shows. */
export interface ApprovalView {
  /** The tool as the model called it (the capability id when it named none). */
  tool: string;
  capability: string;
  /** A command to run, files to change, or another tool's input. */
  kind: "command" | "file_change" | "other";
  /** The command line, for a command. */
  command?: string;
  /** Where a command runs (its working directory, absolute); else the session's directory. */
  cwd: string;
  /** The files an edit would change, each with a unified diff; empty for anything else. */
  changes: FileChangeView[];
  /** The question's subject: the command line, a URL, or the tool's input as JSON. */
  subject: string;
  /**
   * What would run or change as lines: `$ command`, each change as `add|update|delete PATH`
   * then its diff, or the input as indented JSON.
   */
  body: string[];
  /**
   * One line that asks: `Run make test?` (a command short enough for it), `Change a.py?`, or
   * `Allow web_fetch?` (anything else, a long command too).
   */
  heading: string;
  /** The heading names the tool (`Allow …`); else a front end names it beside the heading. */
  headingNamesTool: boolean;
  /** The heading says all the body does (a short one-line command): the body can be left out. */
  bodyInHeading: boolean;
  /** Why approval is needed. */
  reason: string;
  /** The model's justification, if it gave one. */
  justification?: string;
  /** It would run outside the sandbox. */
  unsandboxed: boolean;
  options: readonly ApprovalOption[];
}

/**
 * The view of `ask` in a session whose working directory is `cwd`; `call` is the view of the
 * call waiting for the answer when its start was seen (it says where a command runs).
 */
export function approvalView(ask: ApprovalAsk, cwd: string, call?: ToolView): ApprovalView {
  const { question } = ask;
  const tool = ask.tool || question.capability;
  const where = question.unsandboxed ? " outside the sandbox" : "";
  const common = {
    tool,
    capability: question.capability,
    subject: question.subject,
    reason: question.reason,
    ...(question.justification ? { justification: question.justification } : {}),
    unsandboxed: question.unsandboxed,
    options: APPROVAL_OPTIONS,
  };
  if (question.capability.startsWith("shell.")) {
    const workdir = call?.kind === "command" && call.cwd ? resolve(cwd, call.cwd) : cwd;
    const command = question.subject;
    const short = !command.includes("\n") && command.length <= HEADING_COMMAND_CHARS;
    return {
      ...common,
      kind: "command",
      command,
      cwd: workdir,
      changes: [],
      body: [`$ ${command}`],
      heading: short ? `Run ${command}${where}?` : `Allow ${tool}${where}?`,
      headingNamesTool: !short,
      bodyInHeading: short,
    };
  }
  const changes = proposedChanges(question, cwd);
  if (changes.length > 0) {
    const paths = changes.map((c) => c.displayPath).join(", ");
    return {
      ...common,
      kind: "file_change",
      cwd,
      changes,
      body: changes.flatMap(changeLines),
      heading: `Change ${paths}${where}?`,
      headingNamesTool: false,
      bodyInHeading: false,
    };
  }
  return {
    ...common,
    kind: "other",
    cwd,
    changes: [],
    body: inputLines(question.subject),
    heading: `Allow ${tool}${where}?`,
    headingNamesTool: true,
    bodyInHeading: false,
  };
}

function changeLines(change: FileChangeView): string[] {
  const moved = change.movedTo ? ` → ${change.movedTo}` : "";
  const diff = change.diff.replace(/\n$/, "");
  return [
    `${change.kind} ${change.displayPath}${moved}`,
    ...(diff ? diff.split("\n") : []),
    ...(change.summary ? [change.summary] : []),
  ];
}

/** A JSON input pretty-printed; any other subject (a URL) as it is. */
function inputLines(subject: string): string[] {
  try {
    return JSON.stringify(JSON.parse(subject), null, 2).split("\n");
  } catch {
    return subject.split("\n");
  }
}
