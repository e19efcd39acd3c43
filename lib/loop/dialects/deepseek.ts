/**
 * DeepSeek's tool-call tokens (fullwidth ｜ and ▁, exactly as the tokenizer spells them). V3 and
 * R1 write a type, the name on its own line and the arguments in a JSON fence:
 *
 *     <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
 *     ```json
 *     {…}
 *     ```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
 *
 * V3.1 and later write `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>`. Both are
 * read with or without the section tokens, and with or without the fence.
 */
import { sectionCalls, type SectionDialect } from "./_sections.ts";
import type { Found } from "./types.ts";

export const DEEPSEEK_TAGS = ["<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>"];
const SEP = "<｜tool▁sep｜>";
const NAME = /^[A-Za-z0-9_.:-]+$/;

const DEEPSEEK: SectionDialect = {
  format: "deepseek",
  sectionBegin: "<｜tool▁calls▁begin｜>",
  sectionEnd: "<｜tool▁calls▁end｜>",
  callBegin: "<｜tool▁call▁begin｜>",
  callEnd: "<｜tool▁call▁end｜>",
  trailers: ["<｜end▁of▁sentence｜>"],
  split(body) {
    const sep = body.indexOf(SEP);
    if (sep === -1) return undefined;
    const head = body.slice(0, sep).trim();
    const rest = body.slice(sep + SEP.length);
    const typed = head === "function" && /^[^\n{]+\n/.exec(rest);
    const name = typed ? typed[0].trim() : head;
    const args = unfence(typed ? rest.slice(typed[0].length) : rest);
    return NAME.test(name) ? { name, args } : undefined;
  },
};

/** The calls opening at `start` (a section token or a lone call token). */
export function deepseekCalls(text: string, start: number): Promise<Found | undefined> {
  return sectionCalls(DEEPSEEK, text, start);
}

/** JSON text without the ```json fence around it. */
function unfence(args: string): string {
  const m = /^\s*```[a-z]*[ \t]*\n([\s\S]*?)\n?[ \t]*(?:```\s*)?$/i.exec(args);
  return m ? m[1] : args;
}
