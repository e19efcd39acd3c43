/**
 * The texts a harness gives the session besides its system prompt: the compaction request, the
 * summary message that replaces the history, the reviewer's prompt and the `{{sandbox}}`
 * paragraph. Each is a file named in the spec's `[prompts]` table, else the shared default in
 * `harnesses/_shared/`.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseToml } from "smol-toml";
import * as z from "zod";
import { HarnessError, tomlSyntaxHint } from "../errors.ts";
import { fillTemplate } from "./_template.ts";
import { checkPromptTemplate } from "./prompt.ts";
import { SANDBOX_FACT_PLACEHOLDERS, SANDBOX_TEMPLATE_PLACEHOLDERS } from "./sandbox_text.ts";
import type { HarnessTexts, PromptsKey, SandboxTexts } from "./types.ts";

/** The folder of the shared default texts. */
export const SHARED_TEXTS_DIR = fileURLToPath(new URL("../../harnesses/_shared", import.meta.url));

/** The shared default file of each `[prompts]` key, in `SHARED_TEXTS_DIR`. */
export const SHARED_TEXT_FILES: Readonly<Record<PromptsKey, string>> = Object.freeze({
  compaction: "compaction.md",
  compaction_summary: "compaction_summary.md",
  reviewer: "reviewer.md",
  sandbox: "sandbox.toml",
});

/** How `loadHarnessTexts` finds and reads files. */
export interface TextsLoadOptions {
  /** The harness folder; `[prompts]` paths are relative to it. */
  dir: string;
  /** Names the spec file and a key in it, for errors. */
  at: (key: string) => string;
  readText: (path: string, where: string) => Promise<string>;
}

/** Reads and checks the harness's texts: its `[prompts]` files, else the shared defaults. */
export async function loadHarnessTexts(
  prompts: Partial<Record<PromptsKey, string>>,
  opts: TextsLoadOptions,
): Promise<HarnessTexts> {
  const files = {} as Record<PromptsKey, string>;
  for (const key of Object.keys(SHARED_TEXT_FILES) as PromptsKey[]) {
    const own = prompts[key];
    files[key] = own ? resolve(opts.dir, own) : join(SHARED_TEXTS_DIR, SHARED_TEXT_FILES[key]);
  }
  const where = (key: PromptsKey) => opts.at(`prompts.${key}`);
  const read = (key: PromptsKey) => opts.readText(files[key], where(key));
  const [compaction, summary, reviewer, sandbox] = await Promise.all(
    (["compaction", "compaction_summary", "reviewer", "sandbox"] as const).map(read),
  );
  return {
    compaction: checkCompaction(compaction.trim(), where("compaction")),
    compactionSummary: checkSummary(summary.trimEnd(), where("compaction_summary")),
    reviewer: checkReviewer(reviewer, files.reviewer),
    sandbox: parseSandboxTexts(sandbox, files.sandbox, where("sandbox")),
    files,
  };
}

/** The message that replaces a compacted history, with the model's `summary` in it. */
export function summaryMessage(texts: Pick<HarnessTexts, "compactionSummary">, summary: string) {
  return fillTemplate(
    texts.compactionSummary,
    (name) => name === "summary" ? { value: summary } : undefined,
  );
}

function checkCompaction(text: string, where: string): string {
  if (!text) {
    throw new HarnessError(`${where}: the compaction prompt is empty`, {
      hint: "Write the request that asks the model to summarize the conversation",
    });
  }
  const variable = text.match(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/);
  if (variable) {
    throw new HarnessError(`${where}: the compaction prompt cannot use "${variable[0]}"`, {
      hint: "It is sent as written; remove the variable (the model still sees the system prompt)",
    });
  }
  return text;
}

function checkSummary(text: string, where: string): string {
  checkBraces(text, ["summary"], where);
  if (!text.includes("{summary}")) {
    throw new HarnessError(`${where}: the summary message has no {summary} placeholder`, {
      hint: "Add {summary} where the model's summary goes",
    });
  }
  return text;
}

function checkReviewer(text: string, file: string): string {
  checkPromptTemplate(text, file, "reviewer prompt");
  return text;
}

const sandboxSchema = z.strictObject({
  template: z.string().min(1),
  confined: z.string().min(1),
  unconfined: z.string().min(1),
  approval: z.strictObject({
    "untrusted": z.string(),
    "on-request": z.string(),
    "on-failure": z.string(),
    "never": z.string(),
  }),
});

/** The sandbox texts in `file` (TOML), with their placeholders checked. */
function parseSandboxTexts(text: string, file: string, where: string): SandboxTexts {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (err) {
    const { line } = err as { line?: number };
    const message = (err as Error).message.split("\n")[0];
    const at = typeof line === "number" ? ` at line ${line}` : "";
    throw new HarnessError(`${where}: cannot parse "${file}"${at}: ${message}`, {
      hint: tomlSyntaxHint(message, at),
      cause: err,
    });
  }
  const parsed = sandboxSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue.path.join(".");
    throw new HarnessError(
      `${where}: invalid "${file}": ${key ? `key "${key}": ` : ""}${issue.message}`,
      {
        hint: "It needs template, confined, unconfined and [approval] with untrusted, " +
          "on-request, on-failure and never (see harnesses/_shared/sandbox.toml)",
      },
    );
  }
  const texts = parsed.data;
  checkBraces(texts.template, SANDBOX_TEMPLATE_PLACEHOLDERS, `${where}: "${file}" key "template"`);
  const pieces = [
    ["confined", texts.confined],
    ["unconfined", texts.unconfined],
    ...Object.entries(texts.approval).map(([policy, text]) => [`approval.${policy}`, text]),
  ];
  for (const [key, value] of pieces) {
    checkBraces(value, SANDBOX_FACT_PLACEHOLDERS, `${where}: "${file}" key "${key}"`);
  }
  return texts;
}

function checkBraces(text: string, allowed: readonly string[], where: string): void {
  for (const m of text.matchAll(/\{([a-z_][a-z0-9_]*)\}/g)) {
    if (allowed.includes(m[1])) continue;
    throw new HarnessError(`${where}: unknown placeholder "{${m[1]}}"`, {
      hint: `Use ${allowed.map((a) => `{${a}}`).join(", ")}`,
    });
  }
}
