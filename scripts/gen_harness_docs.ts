// deno-lint-ignore-file no-console -- a command-line generator; its messages are the point
/**
 * Writes the parts of the harness authors' documentation that come from the code:
 * - in harnesses/README.md, between its `generated` markers: the capability reference (every
 *   capability id, its input fields and types, its result placeholders, its error codes; the
 *   prompt variables and the placeholders of the harness-level texts) and the files of the
 *   smallest complete harness (tests/fixtures/harnesses/smallest/);
 * - harnesses/harness.schema.json, the JSON Schema of `harness.toml`, from the zod spec schema.
 *
 *   deno task docs            rewrite both files
 *   deno task docs --check    change nothing; exit 1 naming each file that is out of date
 */
import { extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod";
import { ERROR_SAMPLES, HARNESS_TEXT_FIELDS } from "../lib/harness/error_placeholders.ts";
import { resultPlaceholderNames } from "../lib/harness/placeholders.ts";
import { PROMPT_VARIABLES } from "../lib/harness/prompt.ts";
import {
  SANDBOX_FACT_PLACEHOLDERS,
  SANDBOX_TEMPLATE_PLACEHOLDERS,
} from "../lib/harness/sandbox_text.ts";
import { harnessSpecSchema } from "../lib/harness/spec_schema.ts";
import type { Capability } from "../lib/tools/capability.ts";
import { CAPABILITIES } from "../lib/tools/registry.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
/** The authors' guide, with the generated sections. */
const README_PATH = join(REPO, "harnesses", "README.md");
/** The JSON Schema of `harness.toml`. */
export const SCHEMA_PATH = join(REPO, "harnesses", "harness.schema.json");
/** The smallest complete harness, listed in the guide and loaded by a test. */
const SMALLEST_DIR = join(REPO, "tests", "fixtures", "harnesses", "smallest");

type Json = Record<string, unknown>;

/** The capability reference: one section per capability, then the harness-wide placeholders. */
function capabilityReference(): string {
  const caps = [...CAPABILITIES].sort((a, b) => a.id.localeCompare(b.id));
  const out = [
    "| Capability | Changes something | Input fields |",
    "| --- | --- | --- |",
    ...caps.map((c) =>
      `| [\`${c.id}\`](#${anchor(c.id)}) | ${c.mutates ? "yes" : "no"} | ${
        Object.keys(inputSchema(c).properties ?? {}).map((f) => `\`${f}\``).join(", ") || "none"
      } |`
    ),
    "",
  ];
  for (const cap of caps) out.push(...capabilitySection(cap));
  out.push(...harnessWideSection());
  return out.join("\n");
}

function capabilitySection(cap: Capability): string[] {
  const schema = inputSchema(cap);
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  const out = [`### \`${cap.id}\``, ""];
  if (Object.keys(props).length) {
    out.push("| Field | Type | Required | Description |", "| --- | --- | --- | --- |");
    for (const [name, field] of Object.entries(props)) {
      const cells = [`\`${name}\``, typeText(field), required.has(name) ? "yes" : "no"];
      out.push(`| ${[...cells, String(field.description ?? "")].map(cell).join(" | ")} |`);
    }
  } else {
    out.push("No input fields.");
  }
  out.push("");
  const spellings = Object.entries(cap.spellings ?? {});
  if (spellings.length) {
    const list = spellings.map(([key, others]) => `\`${key}\` (${others.map(code).join(", ")})`);
    out.push(`Other spellings of nested keys: ${list.join("; ")}.`, "");
  }
  const names = resultPlaceholderNames(cap.id);
  if (names) {
    out.push(`Result placeholders: ${names.fields.map(brace).join(" ")}.`);
    if (names.derived.length) out.push(`Derived: ${names.derived.map(brace).join(" ")}.`);
    out.push("");
  }
  const codes = Object.entries(ERROR_SAMPLES[cap.id] ?? {});
  if (codes.length) {
    out.push("Error codes (keys of the tool's `errors`, with their placeholders):", "");
    for (const [code, sample] of codes) {
      out.push(`- \`${code}\`: ${Object.keys(sample).map((k) => brace(snakeCase(k))).join(" ")}`);
    }
    out.push("");
  }
  return out;
}

function harnessWideSection(): string[] {
  const fields = Object.entries(HARNESS_TEXT_FIELDS).map(([key, sample]) =>
    `- \`${key}\`${
      key === "invalid_arguments.issue" ? " (and `missing`, `unexpected`, `invalid`)" : ""
    }: ${Object.keys(sample).map((k) => brace(snakeCase(k))).join(" ")}`
  );
  return [
    "### Prompt variables",
    "",
    "System prompts, `[[context]]` texts and the reviewer prompt may use: " +
    `${Object.keys(PROMPT_VARIABLES).map((v) => `\`{{${v}}}\``).join(" ")}.`,
    "",
    "### Placeholders of the harness-level texts",
    "",
    "- `error_template`: `{message}` `{hint}`; `{if_hint}` / `{unless_hint}` keep their line " +
    "only with / without a hint",
    ...fields,
    "- `[prompts] compaction_summary`: `{summary}`",
    `- \`[prompts] sandbox\`: \`template\`: ${
      SANDBOX_TEMPLATE_PLACEHOLDERS.map(brace).join(" ")
    }; ` +
    `the other texts: ${SANDBOX_FACT_PLACEHOLDERS.map(brace).join(" ")}`,
    "",
  ];
}

function inputSchema(cap: Capability): Json {
  return z.toJSONSchema(cap.input, { io: "input", unrepresentable: "any" }) as Json;
}

/** A JSON Schema as a short type: `string`, `"a" | "b"`, `{step, status}[]`. */
function typeText(s: Json): string {
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if ("const" in s) return JSON.stringify(s.const);
  const union = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (union) return [...new Set(union.map(typeText))].join(" | ");
  if (s.type === "array") {
    const item = typeText((s.items ?? {}) as Json);
    return `${item.includes(" | ") ? `(${item})` : item}[]`;
  }
  if (s.type === "object") {
    const keys = Object.keys((s.properties ?? {}) as Json);
    return keys.length ? `{${keys.join(", ")}}` : "object";
  }
  if (Array.isArray(s.type)) return s.type.join(" | ");
  return typeof s.type === "string" ? s.type : "any";
}

/** The smallest harness's files, each in a fenced block under its path. */
async function smallestHarnessListing(): Promise<string> {
  const files: string[] = [];
  for await (const path of walk(SMALLEST_DIR)) files.push(relative(SMALLEST_DIR, path));
  files.sort((a, b) => (a === "harness.toml" ? -1 : b === "harness.toml" ? 1 : a.localeCompare(b)));
  const out: string[] = [];
  for (const file of files) {
    const text = (await Deno.readTextFile(join(SMALLEST_DIR, file))).trimEnd();
    const lang = { ".toml": "toml", ".md": "markdown", ".json": "json" }[extname(file)] ?? "";
    out.push(`\`smallest/${file}\`:`, "", `\`\`\`${lang}`, text, "```", "");
  }
  return out.join("\n");
}

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.isFile) yield path;
  }
}

/** The JSON Schema of `harness.toml`, as the committed file holds it. */
function harnessJsonSchema(): string {
  // Draft 7: the draft that TOML and JSON editors support best.
  const { $schema, ...schema } = z.toJSONSchema(harnessSpecSchema, {
    target: "draft-7",
    io: "input",
    unrepresentable: "any",
  }) as Json;
  const doc = {
    $schema,
    title: "harness.toml",
    description: "A harness folder's spec (harnesses/README.md). Generated by `deno task docs` " +
      "from lib/harness/spec_schema.ts; do not edit.",
    ...schema,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** `text` with the lines between the markers of section `name` replaced by `body`. */
export function replaceSection(text: string, name: string, body: string): string {
  const begin = `<!-- generated:${name} (deno task docs) -->`;
  const end = `<!-- end generated:${name} -->`;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) {
    throw new Error(`Cannot find the markers of section "${name}" in ${README_PATH}: ${begin}`);
  }
  return `${text.slice(0, from + begin.length)}\n\n${body.trim()}\n\n${text.slice(to)}`;
}

/** Each generated file's path with the text it should have. */
export async function generatedFiles(): Promise<{ path: string; text: string }[]> {
  let readme = await Deno.readTextFile(README_PATH);
  readme = replaceSection(readme, "capabilities", capabilityReference());
  readme = replaceSection(readme, "smallest", await smallestHarnessListing());
  return [{ path: README_PATH, text: readme }, { path: SCHEMA_PATH, text: harnessJsonSchema() }];
}

/** The generated files whose committed text differs, by path relative to the repository. */
export async function staleFiles(): Promise<string[]> {
  const stale: string[] = [];
  for (const { path, text } of await generatedFiles()) {
    const current = await Deno.readTextFile(path).catch(() => undefined);
    if (current !== text) stale.push(relative(REPO, path));
  }
  return stale;
}

function anchor(id: string): string {
  return id.replace(/[^a-z0-9_-]/g, "");
}

function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
}

function code(text: string): string {
  return `\`${text}\``;
}

function brace(name: string): string {
  return `\`{${name}}\``;
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

if (import.meta.main) {
  if (Deno.args.includes("--check")) {
    const stale = await staleFiles();
    for (const file of stale) console.error(`${file} is out of date: run deno task docs`);
    Deno.exit(stale.length ? 1 : 0);
  }
  for (const { path, text } of await generatedFiles()) {
    // Through a temporary file, so that an interrupted run leaves no half-written file.
    await Deno.writeTextFile(`${path}.tmp`, text);
    await Deno.rename(`${path}.tmp`, path);
    console.error(`wrote ${relative(REPO, path)}`);
  }
}
