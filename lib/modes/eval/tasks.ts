/**
 * Loading the tasks of `interpreter eval` from a task file or from Harbor task folders.
 *
 * A task file is TOML with one `[[task]]` table per task:
 *
 * ```toml
 * [[task]]
 * name = "fix-parser"                       # letters, digits, ".", "_", "-"; unique in the file
 * prompt = "Make the failing test in tests/parse_test.ts pass"
 * check = "deno test tests/parse_test.ts"   # exit 0 passes; default: --check
 * setup = "npm ci"                          # optional, run in the copy before the agent
 * network = true                            # optional, the check may reach the network
 * timeout = 600                             # optional, the agent's limit in seconds
 * check_timeout = 120                       # optional, the check's limit in seconds
 *
 * [[task]]
 * name = "readme"
 * prompt_file = "prompts/readme.md"         # instead of prompt; relative to this file
 * ```
 *
 * An array of tables keeps the tasks in the order written, and reads the same for one task as
 * for fifty. A folder is read as Harbor tasks (`harbor_tasks.ts`).
 */
import { dirname, resolve } from "node:path";
import * as z from "zod";
import { isTable } from "../../config/_keypath.ts";
import { parseToml } from "../../config/_layer.ts";
import { nearestName } from "../../nearest.ts";
import { ConfigError } from "../../errors.ts";
import { InputFileError, readInputText } from "../../input_file.ts";
import { type HarborCommandOptions, loadHarborTasks, TASK_NAME } from "./harbor_tasks.ts";
import type { EvalTask } from "./types.ts";

/** What a task takes when it does not set it itself. */
export interface TaskDefaults {
  /** The check of a task file's tasks that set none (`--check`). */
  check?: string;
  /** The agent's time limit of tasks that set none (`--timeout`). */
  timeoutSec?: number;
}

/**
 * The tasks at `path`: a `.toml` task file, a Harbor task folder, or a folder of them. A
 * `ConfigError` names the file, the task and the key of anything invalid; a Harbor task that
 * needs a container is refused with the `harbor run` command that runs it (`opts` fills in it).
 */
export async function loadTasks(
  path: string,
  defaults: TaskDefaults,
  opts: HarborCommandOptions = {},
): Promise<EvalTask[]> {
  const file = resolve(path);
  const info = await Deno.stat(file).catch((error) => {
    throw new ConfigError(`Cannot read tasks from "${file}": ${firstLine(error)}`, {
      hint: "Pass a .toml task file, a Harbor task folder or a folder of Harbor task folders",
      cause: error,
    });
  });
  if (info.isDirectory) return await loadHarborTasks(file, defaults, opts);
  if (!file.endsWith(".toml")) {
    throw new ConfigError(`Cannot read tasks from "${file}": it is not a .toml task file`, {
      hint: `Write the tasks as [[task]] tables in a .toml file: ${EXAMPLE}`,
    });
  }
  return await loadTaskFile(file, defaults);
}

const EXAMPLE = '[[task]] name = "fix-parser" prompt = "Make the test pass" check = "deno test"';

/** An example value of each key, for hints. */
const KEY_EXAMPLES: Record<string, string> = {
  name: 'name = "fix-parser"',
  prompt: 'prompt = "Make the failing test in tests/parse_test.ts pass"',
  prompt_file: 'prompt_file = "prompts/fix_parser.md"',
  check: 'check = "deno test tests/parse_test.ts"',
  setup: 'setup = "npm ci"',
  network: "network = true",
  timeout: "timeout = 600",
  check_timeout: "check_timeout = 120",
};

const seconds = z.number().positive().finite();
const command = z.string().trim().min(1);

const taskSchema = z.strictObject({
  name: z.string().regex(TASK_NAME),
  prompt: z.string().trim().min(1).optional(),
  prompt_file: z.string().min(1).optional(),
  check: command.optional(),
  setup: command.optional(),
  network: z.boolean().optional(),
  timeout: seconds.optional(),
  check_timeout: seconds.optional(),
});

type TaskEntry = z.output<typeof taskSchema>;

/** The tasks of task file `file`, in the order written. */
async function loadTaskFile(file: string, defaults: TaskDefaults): Promise<EvalTask[]> {
  const text = await readInputText(file, { what: "task file" }).catch((error) => {
    if (!(error instanceof InputFileError)) throw error;
    throw new ConfigError(error.message, { hint: error.hint, cause: error });
  });
  const raw = parseToml(text, file);
  const where = new TaskFileText(file, text);
  const unknownRoot = Object.keys(raw).find((key) => key !== "task");
  if (unknownRoot !== undefined) throw where.unknownRootKey(unknownRoot);
  if (!Array.isArray(raw.task) || raw.task.length === 0) {
    throw new ConfigError(`Cannot find tasks in "${file}": it has no [[task]] tables`, {
      hint: `Add one [[task]] table per task: ${EXAMPLE}`,
    });
  }
  const entries = raw.task.map((entry, index) => entryOf(entry, index, where));
  for (const [index, entry] of entries.entries()) {
    if (entries.findIndex((e) => e.name === entry.name) === index) continue;
    throw new ConfigError(`Task "${entry.name}" is defined twice in "${file}"`, {
      hint: `Give each [[task]] a name of its own, as in ${KEY_EXAMPLES.name}`,
    });
  }
  const tasks: EvalTask[] = [];
  for (const [index, entry] of entries.entries()) {
    tasks.push(await taskOf(entry, index, where, defaults));
  }
  return tasks;
}

/** The `index`-th `[[task]]` table, checked against the schema. */
function entryOf(entry: unknown, index: number, where: TaskFileText): TaskEntry {
  const parsed = taskSchema.safeParse(entry);
  if (!parsed.success) throw where.issueError(parsed.error.issues, entry, index);
  return parsed.data;
}

/** One task entry as an `EvalTask`, with `defaults` for what it leaves out. */
async function taskOf(
  task: TaskEntry,
  index: number,
  where: TaskFileText,
  defaults: TaskDefaults,
): Promise<EvalTask> {
  const prompt = await promptOf(task, index, where);
  const check = task.check ?? defaults.check;
  if (check === undefined) {
    throw new ConfigError(
      `Task "${task.name}" in "${where.file}" has no check: nothing would tell pass from fail`,
      { hint: `Pass --check "CMD", or add ${KEY_EXAMPLES.check} to the task` },
    );
  }
  return {
    name: task.name,
    prompt,
    check,
    ...(task.setup !== undefined && { setup: task.setup }),
    ...(task.network !== undefined && { network: task.network }),
    ...optionalNumber("timeoutSec", task.timeout ?? defaults.timeoutSec),
    ...optionalNumber("checkTimeoutSec", task.check_timeout),
  };
}

function optionalNumber<K extends string>(key: K, value: number | undefined) {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: number };
}

/** The task's prompt: `prompt`, or the text of `prompt_file` beside the task file. */
async function promptOf(task: TaskEntry, index: number, where: TaskFileText): Promise<string> {
  const label = `task "${task.name}" in "${where.file}"`;
  if (task.prompt !== undefined && task.prompt_file !== undefined) {
    throw new ConfigError(`Cannot use both "prompt" and "prompt_file" in ${label}`, {
      hint: "Keep one of them: the prompt text, or the file that holds it",
    });
  }
  if (task.prompt !== undefined) return task.prompt;
  if (task.prompt_file === undefined) {
    throw new ConfigError(`Task "${task.name}" in "${where.file}" has no prompt`, {
      hint: `Add ${KEY_EXAMPLES.prompt}, or ${KEY_EXAMPLES.prompt_file}`,
    });
  }
  const promptFile = resolve(dirname(where.file), task.prompt_file);
  const text = await readInputText(promptFile, { what: "prompt file" }).catch((error) => {
    if (!(error instanceof InputFileError)) throw error;
    const at = where.lineOf(index, "prompt_file");
    throw new ConfigError(`Cannot read "prompt_file" of ${label}${at}: ${error.reason}`, {
      hint: `Point "prompt_file" at a text file; "${promptFile}" is where it looked`,
      cause: error,
    });
  });
  if (text.trim() === "") {
    throw new ConfigError(`Prompt file "${promptFile}" of ${label} is empty`, {
      hint: "Write the instruction for the agent into it",
    });
  }
  return text;
}

/** A task file's name and text, for messages that point at a task and a line. */
class TaskFileText {
  readonly file: string;
  #lines: string[];
  constructor(file: string, text: string) {
    this.file = file;
    this.#lines = text.split(/\r?\n/);
  }

  /** ` at line N` for `key` of the `index`-th `[[task]]`, or "" when it cannot be found. */
  lineOf(index: number, key?: string): string {
    const headers = this.#lines.flatMap((line, i) =>
      /^\s*\[\[\s*task\s*\]\]/.test(line) ? [i] : []
    );
    const start = headers[index];
    if (start === undefined) return "";
    const end = this.#lines.findIndex((line, i) => i > start && /^\s*\[/.test(line));
    const block = this.#lines.slice(start, end === -1 ? undefined : end);
    const keyLine = new RegExp(`^\\s*("?)${key}\\1\\s*=`);
    const found = key === undefined ? -1 : block.findIndex((line) => keyLine.test(line));
    return ` at line ${start + 1 + Math.max(found, 0)}`;
  }

  /** The error for a root key other than `task`. */
  unknownRootKey(key: string): ConfigError {
    const guess = nearestName(key, ["task"], { within: 2, contains: false })
      ? '; did you mean "task"?'
      : "";
    return new ConfigError(`Unknown key "${key}" in "${this.file}"${guess}`, {
      hint: `A task file holds only [[task]] tables: ${EXAMPLE}`,
    });
  }

  /** The error for a problem zod found in the `index`-th `[[task]]`, unknown keys first. */
  issueError(issues: z.core.$ZodIssue[], entry: unknown, index: number): ConfigError {
    const issue = issues.find((i) => i.code === "unrecognized_keys") ?? issues[0];
    const name = isTable(entry) && typeof entry.name === "string" ? entry.name : undefined;
    const task = name === undefined ? `task ${index + 1}` : `task "${name}"`;
    const of = `${task} of "${this.file}"`;
    if (issue.code === "unrecognized_keys") {
      const key = issue.keys[0];
      const guess = nearestName(key, Object.keys(KEY_EXAMPLES), { within: 2, contains: false });
      const suggestion = guess === undefined ? "" : `; did you mean "${guess}"?`;
      return new ConfigError(`Unknown key "${key}" in ${of}${this.lineOf(index)}${suggestion}`, {
        hint: `A task takes ${Object.keys(KEY_EXAMPLES).map((k) => `"${k}"`).join(", ")}`,
      });
    }
    const key = issue.path.length > 0 ? String(issue.path[0]) : undefined;
    if (key === undefined || !isTable(entry)) {
      return new ConfigError(`Invalid ${of}: expected a [[task]] table`, {
        hint: `Write each task as a [[task]] table: ${EXAMPLE}`,
      });
    }
    const hint = `Write it as in ${KEY_EXAMPLES[key] ?? EXAMPLE}`;
    if (entry[key] === undefined) {
      return new ConfigError(`Missing "${key}" in ${of}${this.lineOf(index)}`, { hint });
    }
    const at = this.lineOf(index, key);
    return new ConfigError(`Invalid "${key}" in ${of}${at}: ${expectation(key)}`, { hint });
  }
}

function expectation(key: string): string {
  if (key === "name") return 'expected letters, digits, ".", "_" or "-" (it names folders)';
  if (key === "timeout" || key === "check_timeout") return "expected a number of seconds above 0";
  if (key === "network") return "expected true or false";
  return "expected a non-empty string";
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0];
}
