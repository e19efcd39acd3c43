// @ts-types="@types/turndown"
import type TurndownService from "turndown";

type Format = "markdown" | "text";

/**
 * The members of a parsed element that the rules read. turndown's types name the DOM's
 * `HTMLElement`, which the runtime does not declare; its parser's elements have these.
 */
interface HtmlNode {
  nodeName: string;
  textContent: string | null;
  parentNode: HtmlNode | null;
  nextSibling: HtmlNode | null;
  previousElementSibling: HtmlNode | null;
  firstElementChild: HtmlNode | null;
  children: ArrayLike<HtmlNode>;
  getAttribute(name: string): string | null;
}

/** Elements dropped with their content: not part of the readable page. */
const DROPPED: TurndownService.TagName[] = [
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "iframe",
  "head",
];

/**
 * Reduces an HTML page to readable text with turndown. `markdown` keeps headings (`#`), lists,
 * links as `[text](href)`, code as backticks and fences, and tables as pipe tables; `text` keeps
 * links as `text (href)`, lists with `•` or numbers, and drops the other markup. Scripts, styles
 * and the document head are dropped; a `<title>` becomes the first line.
 */
export async function htmlToText(html: string, format: Format): Promise<string> {
  const { default: Turndown } = await import("turndown"); // loaded on first use, not at start-up
  const service = new Turndown({
    headingStyle: "atx",
    bulletListMarker: "-",
    codeBlockStyle: "fenced",
  });
  let title = "";
  service.addRule("title", {
    filter: "title",
    replacement: (_content, node) => {
      title ||= (node.textContent ?? "").replace(/\s+/g, " ").trim();
      return "";
    },
  });
  service.remove(DROPPED);
  service.addRule("link", { filter: "a", replacement: link(format) });
  tableRules(service, format);
  service.addRule("item", { filter: "li", replacement: listItem(format === "text" ? "•" : "-") });
  if (format === "text") plainTextRules(service);
  else {
    service.addRule("pre", {
      filter: (node) => node.nodeName === "PRE" && node.firstElementChild?.nodeName !== "CODE",
      replacement: (_content, node) => `\n\n\`\`\`\n${preText(node)}\n\`\`\`\n\n`,
    });
  }
  const body = tidy(service.turndown(html));
  return title && !body.startsWith(title) ? `${title}\n\n${body}` : body;
}

/** Links to another page keep their address; fragment and script links keep only their text. */
function link(format: Format): TurndownService.ReplacementFunction {
  return (content, node) => {
    const href = node.getAttribute("href") ?? "";
    const text = content.trim();
    if (!text) return "";
    if (!href || href.startsWith("#") || /^javascript:/i.test(href)) return text;
    return format === "markdown" ? `[${text}](${href})` : `${text} (${href})`;
  };
}

/** One line per table row: a pipe table in markdown, cells between ` | ` in text. */
function tableRules(service: TurndownService, format: Format): void {
  const md = format === "markdown";
  service.addRule("table", {
    filter: "table",
    replacement: (content) => `\n\n${content.replace(/^\n+/, "")}\n\n`,
  });
  service.addRule("table_section", {
    filter: ["thead", "tbody", "tfoot"],
    replacement: (content) => content,
  });
  service.addRule("table_row", {
    filter: "tr",
    replacement: (content, node) => {
      const cells = Array.from<HtmlNode>(node.children); // domino collections are not iterable
      const header = md && cells.length > 0 && cells.every((c) => c.nodeName === "TH");
      const rule = header ? `\n|${" --- |".repeat(cells.length)}` : "";
      return md ? `\n|${content}${rule}` : `\n${content}`;
    },
  });
  service.addRule("table_cell", {
    filter: ["th", "td"],
    replacement: (content, node) => {
      const text = content.replace(/\s+/g, " ").trim();
      if (md) return ` ${text.replaceAll("|", "\\|")} |`;
      return node.previousElementSibling ? ` | ${text}` : text;
    },
  });
}

/** Rules that write text without Markdown: no escapes, plain headings, code as it is. */
function plainTextRules(service: TurndownService): void {
  service.escape = (text) => text;
  const block = (content: string) => `\n\n${content.trim()}\n\n`;
  service.addRule("heading", { filter: ["h1", "h2", "h3", "h4", "h5", "h6"], replacement: block });
  service.addRule("quote", { filter: "blockquote", replacement: block });
  service.addRule("pre", {
    filter: "pre",
    replacement: (_content, node) => `\n\n${preText(node)}\n\n`,
  });
  service.addRule("inline", {
    filter: ["code", "em", "i", "strong", "b", "del", "s"],
    replacement: (content) => content,
  });
  service.addRule("image", { filter: "img", replacement: (_c, node) => node.alt ?? "" });
  service.addRule("rule", { filter: "hr", replacement: () => "\n\n" });
}

/**
 * A list item as `<bullet> text`, or `3. text` in a numbered list, its further lines indented
 * under the text (turndown's own rule puts three spaces after every marker).
 */
function listItem(bullet: string): TurndownService.ReplacementFunction {
  return (content, node) => {
    const list = (node as HtmlNode).parentNode;
    let marker = `${bullet} `;
    if (list?.nodeName === "OL") {
      const start = Number(list.getAttribute("start") ?? 1) || 1;
      marker = `${start + Array.from(list.children).indexOf(node)}. `;
    }
    const body = content.replace(/^\n+/, "").replace(/\n+$/, "\n")
      .replace(/\n/g, `\n${" ".repeat(marker.length)}`);
    return marker + body + (node.nextSibling && !body.endsWith("\n") ? "\n" : "");
  };
}

/** The text of a `<pre>` block as written, without its final newline. */
function preText(node: HtmlNode): string {
  return (node.textContent ?? "").replace(/\n$/, "");
}

/** Non-breaking spaces as spaces, no trailing blanks, at most one empty line between blocks. */
function tidy(s: string): string {
  return s.replace(/\u00a0/g, " ").replace(/[ \t]+$/gm, "").replace(/\n{3,}/g, "\n\n")
    .replace(/^\n+|\n+$/g, "");
}
