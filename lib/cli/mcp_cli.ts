/**
 * `interpreter mcp add|list|get|remove|login|logout`: the MCP servers of the user's config.toml.
 * The flags of `add` become a checked `[mcp_servers.NAME]` entry here.
 */
import type { Command } from "commander";
import type { McpServerEntry } from "../config/schema.ts";
import { UsageError } from "../errors.ts";
import type { McpArgs } from "../modes/mcp_cli/mcp_args.ts";
import type { Invocation } from "./flags.ts";

/** `mcp add`'s flags as commander parses them. */
interface AddFlags {
  env: string[];
  url?: string;
  bearerTokenEnvVar?: string;
}

const ADD_EXAMPLES = `
Examples:
  interpreter mcp add docs -- npx -y @acme/docs-mcp --readonly
  interpreter mcp add db --env DB_URL=postgres://localhost/app -- uvx db-mcp
  interpreter mcp add web --url https://mcp.example.com/mcp --bearer-token-env-var WEB_TOKEN

Put the server's command after --, so that its own options are not read as these.`;

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Adds the `mcp` command group to `program` and returns it. */
export function addMcpCommand(program: Command, onInvoke: (inv: Invocation) => void): Command {
  const mcp = program.command("mcp")
    .description("manage the MCP servers of ~/.openinterpreter/config.toml and their sign-ins");
  const invoke = (args: McpArgs) => onInvoke({ mode: "mcp", mcp: args });
  mcp.command("add")
    .description("add a server: the command that starts it (stdio) or its URL (streamable HTTP)")
    .argument("<name>", "the server's name: letters, digits, _ and -")
    .argument("[command...]", "after --: the command that starts the server, and its arguments")
    .option(
      "--env <KEY=VALUE>",
      "an environment variable for the command (repeatable)",
      collect,
      [],
    )
    .option("--url <url>", "the URL of a streamable HTTP server, instead of a command")
    .option("--bearer-token-env-var <var>", "with --url: send this variable's value as the token")
    .addHelpText("after", ADD_EXAMPLES)
    .action((name: string, command: string[], flags: AddFlags) => {
      invoke({ command: "add", name, entry: serverEntryOf(name, command, flags) });
    });
  mcp.command("list").description("list the configured servers")
    .option("--json", "print them as a JSON array")
    .action((flags: { json?: boolean }) => invoke({ command: "list", json: Boolean(flags.json) }));
  mcp.command("get").description("show one server's settings")
    .argument("<name>", "the server's name")
    .option("--json", "print them as a JSON object")
    .action((name: string, flags: { json?: boolean }) => {
      invoke({ command: "get", name, json: Boolean(flags.json) });
    });
  mcp.command("remove").description("remove a server and its settings from config.toml")
    .argument("<name>", "the server's name")
    .action((name: string) => invoke({ command: "remove", name }));
  mcp.command("login").description("sign in to a streamable HTTP server that asks for OAuth")
    .argument("<name>", "the server's name")
    .action((name: string) => invoke({ command: "login", name }));
  mcp.command("logout").description("remove the stored sign-in of a server")
    .argument("<name>", "the server's name")
    .action((name: string) => invoke({ command: "logout", name }));
  return mcp;
}

/** The `[mcp_servers.NAME]` entry `mcp add`'s arguments describe; a `UsageError` if they do not. */
export function serverEntryOf(name: string, command: string[], flags: AddFlags): McpServerEntry {
  checkServerName(name);
  const env = envOf(flags.env);
  const usage = `interpreter mcp add ${name} -- COMMAND [ARGS...]`;
  const byUrl = `interpreter mcp add ${name} --url URL`;
  if (command.length > 0 && flags.url !== undefined) {
    throw new UsageError("Cannot add a server with both a command and --url", {
      hint: `Give a command for a stdio server (${usage}) or --url for an HTTP one (${byUrl})`,
    });
  }
  if (flags.url !== undefined) {
    if (env) {
      throw new UsageError("Cannot use --env with --url: it sets variables of a started command", {
        hint: `Drop --env; an HTTP server's token comes from --bearer-token-env-var VAR`,
      });
    }
    checkUrl(flags.url);
    const token = flags.bearerTokenEnvVar;
    if (token !== undefined) checkVariableName(token);
    return { url: flags.url, ...(token !== undefined ? { bearer_token_env_var: token } : {}) };
  }
  if (command.length === 0 || command[0].trim() === "") {
    throw new UsageError(`Missing the server to add: a command after -- or --url`, {
      hint: `Run "${usage}" for a server started as a command (stdio), or "${byUrl}" for a ` +
        "streamable HTTP server",
    });
  }
  if (flags.bearerTokenEnvVar !== undefined) {
    throw new UsageError("Cannot use --bearer-token-env-var without --url", {
      hint: "A stdio server gets its secrets from --env KEY=VALUE; drop --bearer-token-env-var",
    });
  }
  const [program, ...args] = command;
  return { command: program, ...(args.length ? { args } : {}), ...(env ? { env } : {}) };
}

/** Refuses a name that is not a bare TOML key of letters, digits, `_` and `-`. */
function checkServerName(name: string): void {
  if (/^[A-Za-z0-9_-]+$/.test(name)) return;
  const fixed = name.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "");
  throw new UsageError(`Invalid MCP server name "${name}": use only letters, digits, _ and -`, {
    hint: `The name becomes part of its tools' names (mcp__NAME__TOOL); try "${fixed || "docs"}"`,
  });
}

function envOf(pairs: string[]): Record<string, string> | undefined {
  if (pairs.length === 0) return undefined;
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf("=");
    const key = equals === -1 ? "" : pair.slice(0, equals).trim();
    if (key === "") {
      throw new UsageError(`Invalid --env "${pair}": expected KEY=VALUE`, {
        hint: "Pass each variable as --env KEY=VALUE, e.g. --env API_KEY=abc (the value may be " +
          "empty: --env DEBUG=)",
      });
    }
    env[key] = pair.slice(equals + 1);
  }
  return env;
}

function checkUrl(url: string): void {
  const protocol = URL.parse(url)?.protocol;
  if (protocol === "http:" || protocol === "https:") return;
  throw new UsageError(`Invalid --url "${url}": expected an http or https URL`, {
    hint: "Give the server's full address, as in --url https://mcp.example.com/mcp",
  });
}

function checkVariableName(name: string): void {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return;
  throw new UsageError(
    `Invalid --bearer-token-env-var "${name}": expected the name of an environment variable`,
    {
      hint: "Pass the variable's name, not the token: --bearer-token-env-var MY_TOKEN, with " +
        "MY_TOKEN set in the environment the agent runs in",
    },
  );
}

/** The hint for a command-line error of `argv` when it is an `mcp` one, else undefined. */
export function mcpUsageHint(argv: string[], message: string): string | undefined {
  if (argv[0] !== "mcp") return undefined;
  const sub = ["add", "list", "get", "remove", "login", "logout"].includes(argv[1])
    ? `${argv[1]} `
    : "";
  if (/^unknown command/.test(message)) return `Run "interpreter help mcp" to see its commands`;
  if (sub === "add " && /^unknown option/.test(message) && !argv.includes("--")) {
    return `Put the server's command after --, as in "interpreter mcp add NAME -- npx -y ` +
      `PACKAGE"; "interpreter mcp add --help" shows the options`;
  }
  return `Run "interpreter mcp ${sub}--help" to see the accepted options`;
}
