/** The part of `marked-terminal` (which ships no types) that `markdown.ts` uses. */
import type { MarkedExtension } from "marked";

type Paint = (text: string) => string;

/** Styling and layout options of the terminal renderer. */
export interface TerminalRendererOptions {
  code?: Paint;
  blockquote?: Paint;
  html?: Paint;
  heading?: Paint;
  firstHeading?: Paint;
  hr?: Paint;
  listitem?: Paint;
  table?: Paint;
  paragraph?: Paint;
  strong?: Paint;
  em?: Paint;
  codespan?: Paint;
  del?: Paint;
  link?: Paint;
  href?: Paint;
  text?: Paint;
  unescape?: boolean;
  emoji?: boolean;
  width?: number;
  showSectionPrefix?: boolean;
  reflowText?: boolean;
  tab?: number | string;
  tableOptions?: Record<string, unknown>;
}

/** The renderer as a `marked` extension. */
export function markedTerminal(
  options?: TerminalRendererOptions,
  highlightOptions?: Record<string, unknown>,
): MarkedExtension;
