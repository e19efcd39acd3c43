/** Elements dropped with their content: not part of the readable page. */
const DROPPED = ["script", "style", "noscript", "template", "svg", "iframe", "head"];

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  mdash: "—",
  ndash: "–",
  hellip: "…",
  copy: "©",
};

/**
 * Reduces an HTML page to readable text. `markdown` keeps headings (`#`), list bullets, links
 * as `[text](href)` and code as backticks; `text` keeps links as `text (href)`. Scripts, styles
 * and the document head are dropped; a `<title>` becomes the first line.
 */
export function htmlToText(html: string, format: "markdown" | "text"): string {
  const md = format === "markdown";
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  let s = html.replace(/<!--[\s\S]*?-->/g, "");
  for (const tag of DROPPED) {
    s = s.replace(new RegExp(`<${tag}\\b[\\s\\S]*?<\\/${tag}\\s*>`, "gi"), "");
  }
  s = s.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre>/gi, (_, body: string) => {
    const code = decodeEntities(body.replace(/<[^>]+>/g, ""));
    return md ? `\n\n\`\`\`\n${code.replace(/\n$/, "")}\n\`\`\`\n\n` : `\n\n${code}\n\n`;
  });
  s = s.replace(/<a\b[^>]*?href\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>([\s\S]*?)<\/a>/gi, (
    _whole,
    _q,
    dq: string | undefined,
    sq: string | undefined,
    bare: string | undefined,
    inner: string,
  ) => {
    const href = decodeEntities(dq ?? sq ?? bare ?? "");
    const text = inner.replace(/<[^>]+>/g, "").trim();
    if (!text) return "";
    if (!href || href.startsWith("#") || href.startsWith("javascript:")) return text;
    return md ? `[${text}](${href})` : `${text} (${href})`;
  });
  s = s.replace(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1\s*>/gi, (_, level: string, inner: string) => {
    const prefix = md ? `${"#".repeat(Number(level))} ` : "";
    return `\n\n${prefix}${inner.trim()}\n\n`;
  });
  s = s.replace(/<li\b[^>]*>/gi, md ? "\n- " : "\n• ");
  if (md) s = s.replace(/<\/?code\b[^>]*>/gi, "`");
  s = s.replace(/<br\s*\/?>/gi, "\n");
  s = s.replace(
    /<\/?(p|div|section|article|header|footer|main|nav|ul|ol|table|tr|blockquote|h[1-6])\b[^>]*>/gi,
    "\n\n",
  );
  s = s.replace(/<\/?(td|th)\b[^>]*>/gi, " ");
  s = decodeEntities(s.replace(/<[^>]+>/g, ""));
  const body = tidy(s);
  const heading = title ? tidy(decodeEntities(title)) : "";
  return heading && !body.startsWith(heading) ? `${heading}\n\n${body}` : body;
}

/** Replaces named and numeric character references. Unknown names stay as written. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X"
        ? parseInt(ref.slice(2), 16)
        : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** Collapses runs of blanks inside lines and keeps at most one empty line between blocks. */
function tidy(s: string): string {
  const out: string[] = [];
  let inFence = false;
  for (const raw of s.split("\n")) {
    if (raw.startsWith("```")) inFence = !inFence;
    const line = inFence ? raw.replace(/\s+$/, "") : raw.replace(/[ \t\u00a0]+/g, " ").trim();
    if (line === "" && (out.length === 0 || out.at(-1) === "")) continue;
    out.push(line);
  }
  while (out.at(-1) === "") out.pop();
  return out.join("\n");
}
