/** `interpreter`: parse flags, pick a mode, print fatal errors. */
// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)

import { terminalText } from "./lib/approval/visible.ts";
import { UserError } from "./lib/errors.ts";
import { ENTRY_MODULES } from "./lib/cli/entry_modules.ts";
import { gitCommit, VERSION } from "./lib/version.ts";

/**
 * Loads a command's module when the command runs (see `lib/cli/entry_modules.ts`). Run from the
 * bundle (scripts/bundle.ts), this file is main.js and each module is bundled beside it as .js.
 */
function load<T>(module: keyof typeof ENTRY_MODULES): Promise<T> {
  const file = ENTRY_MODULES[module].replace(/\.ts$/, import.meta.url.slice(-3));
  return import(new URL(`./${file}`, import.meta.url).href);
}

async function versionLine(): Promise<string> {
  return `interpreter ${VERSION} (commit ${await gitCommit()})`;
}

/** Error texts can quote a server or a file, so they are written with control characters shown. */
function printError(error: unknown, verbose: boolean): number {
  if (error instanceof UserError) {
    console.error(terminalText(`error: ${error.message}`));
    if (error.hint) console.error(terminalText(`hint: ${error.hint}`));
    if (verbose && error.cause) console.error(error.cause);
    return error.exitCode;
  }
  console.error(terminalText(`error: ${error instanceof Error ? error.message : String(error)}`));
  console.error("hint: This is a bug in interpreter; please report it with the output above");
  if (error instanceof Error && error.stack) console.error(error.stack);
  return 1;
}

/**
 * The argument that makes this program serve file operations for the sandboxed file-tool helper.
 * A `deno compile` binary cannot run `fs_helper_main.ts` as a script, so it runs itself with it.
 */
const FS_HELPER_ARG = "__fs_helper";

/** The argument that makes a compiled binary serve one code-mode cell (`CODE_CELL_ARG`). */
const CODE_CELL_ARG = "__code_cell";

/** Serves as the file helper or a code-mode cell when `argv` asks for one; else undefined. */
async function serveHelper(argv: string[]): Promise<number | undefined> {
  if (argv.length === 1 && argv[0] === FS_HELPER_ARG) {
    const { serve } = await load<typeof import("./sandbox/fs_helper_main.ts")>("fsHelper");
    await serve();
    return 0;
  }
  if (argv.length === 1 && argv[0] === CODE_CELL_ARG) {
    const { serveCell } = await load<typeof import("./sandbox/code_cell_main.ts")>("codeCell");
    return await serveCell();
  }
  return undefined;
}

async function main(argv: string[]): Promise<number> {
  const helper = await serveHelper(argv);
  if (helper !== undefined) return helper;
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    console.log(await versionLine());
    return 0;
  }
  const verbose = argv.includes("--verbose");
  try {
    const cli = await load<typeof import("./lib/cli/cli.ts")>("cli");
    const command = await cli.commandOf(cli.parseArgs(argv, await versionLine()));
    switch (command.mode) {
      case "done":
        return 0;
      case "repl": {
        const { runRepl } = await load<typeof import("./lib/modes/repl/repl.ts")>("repl");
        return await runRepl(command);
      }
      case "exec": {
        const { runExec } = await load<typeof import("./lib/modes/exec/exec.ts")>("exec");
        return await runExec(command.prompt, command.config, command.exec);
      }
      case "debug_config": {
        const { runDebugConfig } = await load<typeof import("./lib/modes/debug/debug_config.ts")>(
          "debugConfig",
        );
        return await runDebugConfig(command.config);
      }
      case "debug_harness": {
        const { runDebugHarness } = await load<typeof import("./lib/modes/debug/debug_harness.ts")>(
          "debugHarness",
        );
        return await runDebugHarness(command.id, command.config, { tokens: command.tokens });
      }
      case "trust_changes": {
        const { runTrustChanges } = await load<typeof import("./lib/modes/debug/trust_changes.ts")>(
          "trustChanges",
        );
        return await runTrustChanges({ cwd: command.cwd });
      }
      case "trust": {
        const { runTrust } = await load<typeof import("./lib/modes/debug/trust_project.ts")>(
          "trust",
        );
        return await runTrust({ cwd: command.cwd, yes: command.yes });
      }
      case "logout": {
        const { runLogout } = await load<typeof import("./lib/modes/debug/logout.ts")>("logout");
        return await runLogout(command.provider);
      }
      case "mcp": {
        const { runMcp } = await load<typeof import("./lib/modes/mcp_cli/mcp.ts")>("mcp");
        return await runMcp(command.mcp);
      }
      case "mcp_server": {
        const { runMcpServer } = await load<typeof import("./lib/modes/mcp_server/mcp_server.ts")>(
          "mcpServer",
        );
        return await runMcpServer(command.config);
      }
      case "acp": {
        const { runAcp } = await load<typeof import("./lib/modes/acp/acp.ts")>("acp");
        return await runAcp(command.config);
      }
      case "eval": {
        const { runEval } = await load<typeof import("./lib/modes/eval/eval.ts")>("eval");
        return await runEval(command.eval);
      }
      case "export": {
        const { runExport } = await load<typeof import("./lib/modes/export/export.ts")>("export");
        return await runExport(command.export);
      }
      case "run":
        return await command.run(await load(command.module));
    }
  } catch (error) {
    return printError(error, verbose);
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
