/**
 * What the developer tools ask of harnesses without opening a session: `debug harness` loads an
 * installed harness or one from a folder (checked exactly as an installed one) and shows, for
 * each tool, its sample result and for each text where it came from; `eval` lists the installed
 * harnesses and the wire APIs each speaks.
 */
import { basename, join, relative, resolve } from "node:path";
import { UsageError } from "../errors.ts";
import {
  type HarnessDirs,
  listHarnessIds,
  loadHarness,
  loadHarnessDir,
  SPEC_FILE,
} from "../harness/load.ts";
import { placeholdersFor, sampleRender } from "../harness/placeholders.ts";
import { SHARED_TEXTS_DIR } from "../harness/session_texts.ts";
import type { Harness, HarnessTool } from "../harness/types.ts";
import type { WireApi } from "../providers/types.ts";
import { BUILTIN_HARNESSES } from "./agent_session.ts";
import { loadSessionConfig } from "./setup.ts";
import type { SessionConfig } from "./types.ts";

/** The built-in harnesses and the user's under `home`. */
function installedDirs(home: string): HarnessDirs {
  return { builtinDir: BUILTIN_HARNESSES, userDir: join(home, "harnesses") };
}

/**
 * The harness `idOrPath` names: a path (with a `/`, or a folder here holding a harness.toml) is
 * loaded from that folder, so a harness can be checked before it is installed; anything else is
 * an installed harness's id (built in, or under the config home `options` lead to).
 */
export async function harnessToInspect(
  idOrPath: string,
  options: SessionConfig,
): Promise<Harness> {
  if (await isHarnessPath(idOrPath)) return await loadHarnessFolder(idOrPath);
  const config = await loadSessionConfig(options, { env: Deno.env.toObject() });
  const dirs = installedDirs(config.home);
  const ids = await listHarnessIds(dirs);
  if (!ids.includes(idOrPath)) {
    throw new UsageError(`Unknown harness "${idOrPath}"`, {
      hint: `Known harnesses: ${ids.join(", ")}; or give the path of a harness folder`,
    });
  }
  return await loadHarness(idOrPath, dirs);
}

async function isHarnessPath(arg: string): Promise<boolean> {
  return /[/\\]/.test(arg) || arg === "." || arg === ".." || await isFile(join(arg, SPEC_FILE));
}

/** The harness in folder `path`, checked exactly as an installed one. */
async function loadHarnessFolder(path: string): Promise<Harness> {
  const dir = resolve(path);
  const stat = await Deno.stat(dir).catch(() => undefined);
  if (!stat?.isDirectory) {
    throw new UsageError(`Cannot load the harness folder "${path}": it is not a folder`, {
      hint: "Give the path of a folder that holds a harness.toml, or a harness id",
    });
  }
  if (!await isFile(join(dir, SPEC_FILE))) {
    throw new UsageError(`Cannot load the harness folder "${path}": it has no ${SPEC_FILE}`, {
      hint: `Write ${SPEC_FILE} there (harnesses/README.md walks through the smallest one)`,
    });
  }
  return await loadHarnessDir(dir);
}

async function isFile(path: string): Promise<boolean> {
  return (await Deno.stat(path).catch(() => undefined))?.isFile ?? false;
}

/** What a tool's result looks like: how many placeholders it may use, and a sample rendered. */
export interface ToolResultSample {
  placeholders: number;
  /** The tool's template applied to a sample output; none when its capability has no sample. */
  sample?: string;
}

/** The result sample of `tool`, as `debug harness` shows it. */
export function toolResultSample(tool: HarnessTool): ToolResultSample {
  const sample = sampleRender(tool);
  return {
    placeholders: (placeholdersFor(tool.capability) ?? []).length,
    ...(sample === undefined ? {} : { sample }),
  };
}

/** Where text file `file` of `h` came from: the harness's own file, or the shared default. */
export function textOrigin(h: Harness, file: string): string {
  return relative(SHARED_TEXTS_DIR, file) === basename(file)
    ? `(shared) _shared/${basename(file)}`
    : relative(h.dir, file);
}

/** The installed harnesses (built in, and the user's under `home`), as eval picks from them. */
export interface InstalledHarnesses {
  ids: string[];
  /** The wire APIs harness `id` speaks (loading it, so a broken one is reported). */
  wireApisOf(id: string): Promise<WireApi[]>;
}

/** The harnesses installed for the user whose config home is `home`. */
export async function installedHarnesses(home: string): Promise<InstalledHarnesses> {
  const dirs = installedDirs(home);
  return {
    ids: await listHarnessIds(dirs),
    wireApisOf: async (id) => (await loadHarness(id, dirs)).wireApis,
  };
}
