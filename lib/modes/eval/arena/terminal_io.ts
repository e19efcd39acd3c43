/**
 * The arena's questions on the terminal: lines read from stdin only when asked (so a pager can
 * have the terminal in between), and a patch shown through `$PAGER` when it does not fit.
 */
import { terminalText } from "../../../approval/visible.ts";
import { saidYes } from "../../term/trust_lines.ts";

const encoder = new TextEncoder();

/** Reads stdin a line at a time, only while a question waits. */
export class LineReader {
  #buffered = "";
  #decoder = new TextDecoder();
  #ended = false;

  /** Writes `question` to stderr; the next line, or null at the end of input. */
  async ask(question: string): Promise<string | null> {
    writeAll(Deno.stderr, question);
    for (;;) {
      const end = this.#buffered.indexOf("\n");
      if (end >= 0) {
        const line = this.#buffered.slice(0, end);
        this.#buffered = this.#buffered.slice(end + 1);
        return line.replace(/\r$/, "");
      }
      if (this.#ended) {
        const rest = this.#buffered;
        this.#buffered = "";
        return rest ? rest : null;
      }
      const chunk = new Uint8Array(4096);
      const n = await Deno.stdin.read(chunk);
      if (n === null) this.#ended = true;
      else this.#buffered += this.#decoder.decode(chunk.subarray(0, n), { stream: true });
    }
  }

  /** A yes/no question; only `y` or `yes` is a yes. */
  async confirm(question: string): Promise<boolean> {
    return saidYes(await this.ask(`${terminalText(question)} [y/N] `));
  }
}

/** Shows `text` on stdout, through `$PAGER` when stdout is a terminal it does not fit. */
export async function showPaged(patch: string, env: Record<string, string>): Promise<void> {
  // The model wrote the patch: its escape sequences are shown, not run.
  const text = terminalText(patch);
  const lines = text.split("\n").length;
  const rows = Deno.stdout.isTerminal() ? Deno.consoleSize().rows : Infinity;
  if (lines < rows - 1) return writeAll(Deno.stdout, text.endsWith("\n") ? text : text + "\n");
  const child = new Deno.Command("sh", {
    args: ["-c", env.PAGER || "less -FRX"],
    stdin: "piped",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(encoder.encode(text)).catch(() => {});
  await writer.close().catch(() => {});
  await child.status;
}

/** Writes all of `text` to `file`. */
export function writeAll(file: { writeSync(p: Uint8Array): number }, text: string): void {
  const bytes = encoder.encode(text);
  let done = 0;
  while (done < bytes.length) done += file.writeSync(bytes.subarray(done));
}
