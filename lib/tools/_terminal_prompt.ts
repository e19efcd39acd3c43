/**
 * The prompt of the terminal `terminal.keys` types into (bash with `PS1` below);
 * lib/workspace/terminal_screen.ts works out the line a fresh one shows.
 */

/** The prompt the terminal's shell shows: user, host, working folder (`~` for home), `#`. */
export const PS1 = "\\u@\\h:\\w# ";
