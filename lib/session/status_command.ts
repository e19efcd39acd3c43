/**
 * Runs a status-line script for the REPL (`lib/modes/term/status_script.ts`) the way the
 * session runs hook commands: the user's shell, its children ended with it, a time limit.
 */
export { runHookCommand as runStatusCommand } from "../hooks/run_hook.ts";
