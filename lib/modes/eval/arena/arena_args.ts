/** What `interpreter arena` was asked, as the CLI parsed it. */
import type { ExecPassThrough } from "../eval_args.ts";

/** Which contestant's patch goes into the working tree. */
export type ArenaPick =
  | { kind: "best" }
  | { kind: "none" }
  /** A letter (`b`) or a 1-based number (`2`), as typed. */
  | { kind: "one"; which: string };

/** `interpreter arena [options] PROMPT`. */
export interface ArenaArgs {
  prompt: string;
  /** `a,b`, `all` or `fitting` (the default). */
  harness?: string;
  /** `m1,m2`; none: the configured model. */
  model?: string;
  check?: string;
  /** None: ask on a terminal, else apply nothing. */
  pick?: ArenaPick;
  yes: boolean;
  /** The agent's time limit per contestant, in seconds. */
  timeout: number;
  /** The job folder (default `~/.openinterpreter/arena/<time>`). */
  out?: string;
  /** The REPL's `/arena`: the file the choice is written to; `continue with X` is offered. */
  handoff?: string;
  exec: ExecPassThrough;
}
