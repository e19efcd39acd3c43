/** User-facing errors. Each carries a hint that tells the user what to do next. */

/** An error the user can fix; `main.ts` prints `error:` and `hint:` lines for it. */
export class UserError extends Error {
  readonly hint?: string;
  readonly exitCode: number;
  constructor(message: string, opts: { hint?: string; exitCode?: number; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = new.target.name;
    this.hint = opts.hint;
    this.exitCode = opts.exitCode ?? 1;
  }
}

/** Bad command-line usage: unknown flag, bad value. Exit code 2. */
export class UsageError extends UserError {
  constructor(message: string, opts: { hint?: string; cause?: unknown } = {}) {
    super(message, { ...opts, exitCode: 2 });
  }
}

/** A configuration file or value is invalid. Exit code 2. */
export class ConfigError extends UserError {
  constructor(message: string, opts: { hint?: string; cause?: unknown } = {}) {
    super(message, { ...opts, exitCode: 2 });
  }
}

/** Credentials are missing or rejected. */
export class AuthError extends UserError {}

/** A harness spec file is invalid, or a harness cannot be used with the chosen wire API. */
export class HarnessError extends UserError {
  constructor(message: string, opts: { hint?: string; cause?: unknown } = {}) {
    super(message, { ...opts, exitCode: 2 });
  }
}

/**
 * A tool call failed in a way the model can correct (bad arguments, missing file, patch that
 * does not apply). The loop returns it to the model as an error result; the run goes on.
 */
export class ToolError extends Error {
  readonly hint?: string;
  constructor(message: string, hint?: string) {
    super(message);
    this.name = "ToolError";
    this.hint = hint;
  }
}

/** The fix for a TOML syntax error, from the parser's message; `at` is like ` at line 3`. */
export function tomlSyntaxHint(detail: string, at: string): string {
  if (/redefine|already defined|duplicate/i.test(detail)) {
    return `A key or table is set twice: remove or rename the second one${at}`;
  }
  return `Fix the TOML syntax${at}; strings need quotes, as in model = "gpt-5"`;
}
