/**
 * Harbor task folders (`task.toml`, `instruction.md`, `tests/test.sh`) as eval tasks. Only
 * tasks that run on the host are taken: a task whose environment is a container (a Dockerfile,
 * a compose file or an image), that has several steps or that asks for a network allowlist is
 * refused with the `harbor run` command that runs it, with our Harbor agent, where it was meant
 * to run. The test's network follows `network_mode` (the verifier's, else the environment's;
 * omitted means public), and `[verifier] env` is added to its environment.
 */
import { basename, join, resolve } from "node:path";
import * as z from "zod";
import { parseToml } from "../../config/_layer.ts";
import { ConfigError, UserError } from "../../errors.ts";
import { InputFileError, readInputText } from "../../input_file.ts";
import type { EvalTask } from "./types.ts";

/** A task name: it names folders, so letters, digits, ".", "_" and "-" only. */
export const TASK_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The folder of our Harbor agent, `interpreter_harbor.py`, in the interpreter repository. */
export const HARBOR_SHIM_DIR = "integrations/harbor";

/** Harbor's default verifier time limit, for a task.toml that sets none. */
const VERIFIER_TIMEOUT_SEC = 600;

/** What the `harbor run` command in a refusal's hint is filled in with. */
export interface HarborCommandOptions {
  /** `-m`; `MODEL` when not given. */
  model?: string;
  /** `--ak harness=`; `HARNESS` when not given. */
  harness?: string;
  /** PYTHONPATH, the folder of `interpreter_harbor.py`; HARBOR_SHIM_DIR when not given. */
  shimDir?: string;
}

const seconds = z.number().positive().finite();

/**
 * The task.toml keys we read. Loose: Harbor adds keys over time, and both the root key
 * `schema_version` (1.1 and later) and the legacy `version` (1.0) are accepted.
 */
const taskTomlSchema = z.looseObject({
  schema_version: z.union([z.string(), z.number()]).optional(),
  version: z.union([z.string(), z.number()]).optional(),
  task: z.looseObject({ name: z.string().optional() }).optional(),
  agent: z.looseObject({ timeout_sec: seconds.optional() }).optional(),
  verifier: z.looseObject({
    timeout_sec: seconds.optional(),
    network_mode: z.string().optional(),
    env: z.record(z.string(), z.string()).optional(),
  }).optional(),
  environment: z.looseObject({
    docker_image: z.string().optional(),
    network_mode: z.string().optional(),
    allow_internet: z.boolean().optional(),
  }).optional(),
  steps: z.array(z.unknown()).optional(),
});

type TaskToml = z.output<typeof taskTomlSchema>;

/** One folder read: the task, or why it cannot run here. */
type FolderTask = { task: EvalTask; needs?: undefined } | { name: string; needs: string };

/**
 * The Harbor tasks in `dir` (made absolute, as each task's `harborDir` is): `dir` itself when it holds a task.toml, else each subfolder that
 * holds one, by name. `defaults.timeoutSec` is the agent's limit of tasks whose task.toml sets
 * none; their check is always `tests/test.sh`.
 */
export async function loadHarborTasks(
  dir: string,
  defaults: { timeoutSec?: number },
  opts: HarborCommandOptions = {},
): Promise<EvalTask[]> {
  dir = resolve(dir);
  const folders = await isFile(join(dir, "task.toml")) ? [dir] : await taskFolders(dir);
  if (folders.length === 0) {
    throw new ConfigError(`Cannot find tasks in "${dir}": it holds no task.toml`, {
      hint: "Pass a Harbor task folder (task.toml, instruction.md, tests/test.sh), a folder " +
        "of them, or a .toml file of [[task]] tables",
    });
  }
  const read: FolderTask[] = [];
  for (const folder of folders) read.push(await readFolder(folder, defaults.timeoutSec));
  const refused = read.flatMap((r) => r.needs === undefined ? [] : [r]);
  if (refused.length > 0) throw refusal(refused[0], refused.length, read.length, dir, opts);
  const tasks = read.flatMap((r) => r.needs === undefined ? [r.task] : []);
  for (const [i, task] of tasks.entries()) {
    const twin = tasks.findIndex((t) => t.name === task.name);
    if (twin === i) continue;
    throw new ConfigError(
      `Tasks "${tasks[twin].harborDir}" and "${task.harborDir}" have the same name "${task.name}"`,
      { hint: 'Give one of them another [task] name = "org/NAME" in its task.toml' },
    );
  }
  return tasks;
}

/** The subfolders of `dir` that hold a task.toml, sorted by name; hidden ones are skipped. */
async function taskFolders(dir: string): Promise<string[]> {
  const folders: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name.startsWith(".")) continue;
    const folder = join(dir, entry.name);
    if (await isFile(join(folder, "task.toml"))) folders.push(folder);
  }
  return folders.sort();
}

/** The task in Harbor task folder `dir`. */
async function readFolder(dir: string, timeoutSec: number | undefined): Promise<FolderTask> {
  const file = join(dir, "task.toml");
  const config = parseTaskToml(await readText(file, "Harbor task file"), file);
  const name = taskName(config, dir);
  const needs = await containerNeed(config, dir);
  if (needs !== undefined) return { name, needs };
  const prompt = await readText(join(dir, "instruction.md"), "task instruction", {
    hint: "Write the instruction for the agent into instruction.md beside task.toml",
  });
  if (!await isFile(join(dir, "tests", "test.sh"))) {
    throw new ConfigError(`Harbor task "${name}" in "${dir}" has no tests/test.sh`, {
      hint: "Add tests/test.sh: it checks the result and writes 1 or 0 to " +
        "/logs/verifier/reward.txt",
    });
  }
  const agentTimeout = config.agent?.timeout_sec ?? timeoutSec;
  const env = config.verifier?.env ?? {};
  return {
    task: {
      name,
      prompt,
      ...(agentTimeout !== undefined && { timeoutSec: agentTimeout }),
      checkTimeoutSec: config.verifier?.timeout_sec ?? VERIFIER_TIMEOUT_SEC,
      network: networkMode(config) === "public",
      ...(Object.keys(env).length > 0 && { verifierEnv: env }),
      harborDir: dir,
    },
  };
}

const NETWORK_MODES = ["public", "no-network", "allowlist"];

/** The test's `network_mode`: the verifier's, else the environment's (`allow_internet` too). */
function networkMode(config: TaskToml): string {
  const legacy = config.environment?.allow_internet === false ? "no-network" : "public";
  return config.verifier?.network_mode ?? config.environment?.network_mode ?? legacy;
}

/**
 * `env` with each `${VAR}` and `${VAR:-default}` in its values taken from `from`, the check's
 * environment (which holds no key, secret or token). A variable that is not there and has no
 * default is an error naming the task.
 */
export function resolveVerifierEnv(
  task: { name: string; harborDir?: string; verifierEnv?: Record<string, string> },
  from: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(task.verifierEnv ?? {})) {
    out[key] = value.replace(/\$\{(\w+)(?::-([^}]*))?\}/g, (_, name: string, fallback?: string) => {
      const found = from[name] ?? fallback;
      if (found !== undefined) return found;
      return fail(
        `[verifier] env ${key} of Harbor task "${task.name}" takes \${${name}}, which checks ` +
          `do not get (in "${join(task.harborDir ?? "", "task.toml")}")`,
        {
          hint: `Set ${name} in your environment, or give a default as in \${${name}:-value}; ` +
            "names like *KEY*, *SECRET* and *TOKEN* never reach checks unless " +
            "[shell_environment_policy] lets them",
        },
      );
    });
  }
  return out;
}

function parseTaskToml(text: string, file: string): TaskToml {
  const parsed = taskTomlSchema.safeParse(parseToml(text, file));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const key = issue.path.map(String).join(".");
  const number = key.endsWith("timeout_sec");
  const expected = number ? "a number of seconds above 0" : "a string";
  return fail(`Invalid "${key}" in "${file}": expected ${expected}`, {
    hint: number ? "Write it as in timeout_sec = 600.0" : `Set "${key}" to a quoted string`,
  });
}

/** `[task].name` after its `org/`, else the folder's name. */
function taskName(config: TaskToml, dir: string): string {
  const name = config.task?.name?.split("/").pop() || basename(dir);
  if (TASK_NAME.test(name)) return name;
  return fail(`Harbor task "${name}" in "${dir}" has a name that cannot name a folder`, {
    hint: 'Use letters, digits, ".", "_" and "-" in its folder name or [task] name',
  });
}

/** What the task needs that a host run cannot give (a container, mostly), if anything. */
async function containerNeed(config: TaskToml, dir: string): Promise<string | undefined> {
  if ((config.steps?.length ?? 0) > 0) return "Harbor's runner for its [[steps]]";
  const network = networkMode(config);
  if (network === "allowlist") {
    return 'a network allowlist (network_mode = "allowlist"), which eval cannot enforce';
  }
  if (!NETWORK_MODES.includes(network)) {
    return fail(`Invalid network_mode "${network}" in "${join(dir, "task.toml")}"`, {
      hint: 'Use "public", "no-network" or "allowlist" (omitted means public)',
    });
  }
  const image = config.environment?.docker_image;
  if (image) return `the container image "${image}" ([environment].docker_image)`;
  for (const file of ["Dockerfile", "docker-compose.yaml", "docker-compose.yml"]) {
    if (await isFile(join(dir, "environment", file))) {
      return `a container built from environment/${file}`;
    }
  }
  return undefined;
}

/** The refusal of a task that needs a container, with the Harbor command that runs `dir`. */
function refusal(
  first: { name: string; needs: string },
  count: number,
  total: number,
  dir: string,
  opts: HarborCommandOptions,
): UserError {
  const verb = count === 1 ? "needs" : "need";
  const others = total === 1 ? "" : `; ${count} of the ${total} tasks in "${dir}" ${verb} one`;
  const command = [
    `PYTHONPATH=${shellWord(opts.shimDir ?? HARBOR_SHIM_DIR)}`,
    `harbor run -p ${shellWord(dir)}`,
    "--agent-import-path interpreter_harbor:Interpreter",
    `-m ${shellWord(opts.model ?? "MODEL")}`,
    `--ak ${shellWord(`harness=${opts.harness ?? "HARNESS"}`)}`,
  ].join(" ");
  return new UserError(
    `Cannot run Harbor task "${first.name}" here: it needs ${first.needs}${others}`,
    {
      hint:
        `Run ${
          total === 1 ? "it" : "them"
        } with Harbor and our agent (PYTHONPATH is the folder of ` +
        `interpreter_harbor.py in the interpreter repository): ${command}`,
    },
  );
}

/** `word` quoted for a POSIX shell when it needs to be. */
export function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

async function readText(file: string, what: string, opts: { hint?: string } = {}) {
  try {
    return await readInputText(file, { what });
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    const hint = error.missing && opts.hint ? opts.hint : error.hint;
    return fail(error.message, { hint, cause: error });
  }
}

async function isFile(path: string): Promise<boolean> {
  return await Deno.stat(path).then((info) => info.isFile, () => false);
}

function fail(message: string, opts: { hint?: string; cause?: unknown }): never {
  throw new ConfigError(message, opts);
}
