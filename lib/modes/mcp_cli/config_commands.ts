// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
/**
 * `interpreter mcp add` and `interpreter mcp remove`: edit the `[mcp_servers.NAME]` tables of
 * the user's `~/.openinterpreter/config.toml` in place, leaving its comments and other keys as
 * they are (see `lib/config/mcp_servers_file.ts`).
 */
import { configHome } from "../../config/load.ts";
import {
  configLayerOf,
  readConfigText,
  userConfigFile,
  withMcpServer,
  withoutMcpServer,
  writeConfigText,
} from "../../config/mcp_servers_file.ts";
import type { McpServerEntry } from "../../config/schema.ts";
import { UsageError } from "../../errors.ts";
import { configuredServers, unknownServer } from "./list_commands.ts";

/** The user's config file: `$OPENINTERPRETER_HOME/config.toml` or `~/.openinterpreter/…`. */
function configFile(): string {
  return userConfigFile(configHome(Deno.env.toObject(), Deno.cwd()));
}

/** Adds server `name` with `entry` to the user's config.toml; the exit code. */
export async function runMcpAdd(name: string, entry: McpServerEntry): Promise<number> {
  const file = configFile();
  const text = await readConfigText(file);
  const servers = configLayerOf(text, file).mcp_servers ?? {};
  if (Object.hasOwn(servers, name)) {
    throw new UsageError(`MCP server "${name}" already exists in "${file}"`, {
      hint: `Remove it first with "interpreter mcp remove ${name}", or choose another name ` +
        `("interpreter mcp get ${name}" shows it)`,
    });
  }
  await writeConfigText(file, withMcpServer(text, file, { name, entry }));
  console.log(`Added MCP server "${name}" to ${file}`);
  if (entry.url !== undefined && entry.bearer_token_env_var === undefined) {
    console.log(`If it asks you to sign in, run "interpreter mcp login ${name}"`);
  }
  console.log("Sessions started from now on get its tools; /mcp in the REPL lists them");
  return 0;
}

/** Removes server `name` and its subtables from the user's config.toml; the exit code. */
export async function runMcpRemove(name: string): Promise<number> {
  const file = configFile();
  const text = await readConfigText(file);
  const servers = configLayerOf(text, file).mcp_servers ?? {};
  if (!Object.hasOwn(servers, name)) throw await notInUserFile(name, file, Object.keys(servers));
  await writeConfigText(file, withoutMcpServer(text, file, name));
  console.log(`Removed MCP server "${name}" from ${file}`);
  return 0;
}

/** The error for `remove` of a server the user's file lacks: unknown, or set in another file. */
async function notInUserFile(name: string, file: string, known: string[]): Promise<UsageError> {
  const elsewhere = await configuredServers().then(
    ({ servers, fileOf }) => (Object.hasOwn(servers, name) ? fileOf(name) : undefined),
    () => undefined,
  );
  if (elsewhere === undefined || elsewhere === file) return unknownServer(name, known);
  return new UsageError(`MCP server "${name}" is set in "${elsewhere}", not in "${file}"`, {
    hint: `"interpreter mcp remove" edits only "${file}"; remove [mcp_servers.${name}] from ` +
      `"${elsewhere}" by hand`,
  });
}
