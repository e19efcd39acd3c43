import { HarnessError } from "../errors.ts";
import type { HarnessTool, InvalidArgumentsTexts } from "./types.ts";

const EDIT = {
  path: "src/a.ts",
  absolutePath: "/work/app/src/a.ts",
  editIndex: 0,
  editCount: 1,
  severalEdits: false,
};

/** The coded errors of the MCP resource tools. */
const MCP_ERRORS = {
  /** No server of the session has this id; `available` lists theirs, comma-separated. */
  unknown_server: { server: "docs", available: "docs, github" },
  /** The server `failed` or `needs_login` (`reason` says why; may be empty). */
  server_not_ready: { server: "docs", status: "failed", reason: "exited with code 1" },
  /** The server answered the request (`method`: `resources/list` or `resources/read`) with an error. */
  request_failed: {
    server: "docs",
    uri: "docs://guide",
    method: "resources/read",
    message: "MCP error -32002: Resource not found",
  },
};

/**
 * The one table of error codes a tool's `errors` may word, per capability id: each code with
 * sample fields (the `{placeholders}` of its text, by name or snake_case, plus `{if_<field>}`
 * and `{unless_<field>}`). The capabilities throw these as CodedToolErrors.
 */
export const ERROR_SAMPLES: Readonly<Record<string, Readonly<Record<string, object>>>> = {
  "fs.edit": {
    /** The old string does not occur in the file. */
    string_not_found: { ...EDIT, oldString: "const y = 1;" },
    /** It occurs `count` times and the call does not replace all. */
    multiple_matches: { ...EDIT, oldString: "y", count: 3 },
    /** The old string is empty. */
    empty_string: { ...EDIT, oldString: "" },
    /** Old and new strings are the same. */
    no_change: { ...EDIT, oldString: "y" },
    /** The tool requires a Read first, and the file was not read. */
    not_read: { path: EDIT.path, absolutePath: EDIT.absolutePath },
    /** The file changed since it was read. */
    changed_since_read: { path: EDIT.path, absolutePath: EDIT.absolutePath },
    file_not_found: { path: EDIT.path, absolutePath: EDIT.absolutePath },
  },
  "fs.read": {
    file_not_found: { path: EDIT.path, absolutePath: EDIT.absolutePath, cwd: "/work/app" },
    /** `offset` (as the call gave it; `start_line` as read) is past the last line. */
    offset_beyond_end: {
      path: EDIT.path,
      absolutePath: EDIT.absolutePath,
      offset: 90,
      startLine: 90,
      totalLines: 40,
    },
  },
  "mcp.list_resources": MCP_ERRORS,
  "mcp.read_resource": MCP_ERRORS,
  "fs.apply_patch": {
    /** A hunk's old lines are not in the file. */
    lines_not_found: { path: EDIT.path, oldLines: "const y = 1;", hunk: 1, hunkCount: 2 },
  },
};

/** The fields of the harness-level texts: unknown tool and bad arguments. */
export const HARNESS_TEXT_FIELDS = {
  unknown_tool_template: { name: "", available: "" },
  "invalid_arguments.template": {
    name: "",
    message: "",
    hint: "",
    problems: "",
    issues: "",
    argumentsJson: "",
    several: false,
  },
  "invalid_arguments.issue": { param: "", problem: "", text: "" },
  "invalid_arguments.not_json": { name: "", message: "", problem: "" },
} as const;

/** Checks a tool's `errors`: known codes of its capability, known fields in each text. */
export function checkToolErrors(tool: HarnessTool, where: (key: string) => string): void {
  const codes = ERROR_SAMPLES[tool.capability] ?? {};
  for (const [code, text] of Object.entries(tool.errors ?? {})) {
    const sample = codes[code];
    if (!sample) {
      const known = Object.keys(codes);
      throw new HarnessError(
        `${where(`errors.${code}`)}: capability ${tool.capability} has no error "${code}"`,
        { hint: known.length ? `Its error codes: ${known.join(", ")}` : "It has no coded errors" },
      );
    }
    checkFields(text, sample, where(`errors.${code}`));
  }
}

/** Checks the unknown-tool and invalid-arguments texts of a spec; `where` names the key. */
export function checkHarnessTexts(
  texts: { unknownTool: string; invalidArguments?: InvalidArgumentsTexts },
  where: (key: string) => string,
): void {
  const f = HARNESS_TEXT_FIELDS;
  checkFields(texts.unknownTool, f.unknown_tool_template, where("unknown_tool_template"));
  const ia = texts.invalidArguments;
  if (!ia) return;
  checkFields(ia.template, f["invalid_arguments.template"], where("invalid_arguments.template"));
  for (const key of ["issue", "missing", "unexpected", "invalid"] as const) {
    const text = ia[key];
    if (text) checkFields(text, f["invalid_arguments.issue"], where(`invalid_arguments.${key}`));
  }
  if (ia.notJson) {
    checkFields(ia.notJson, f["invalid_arguments.not_json"], where("invalid_arguments.not_json"));
  }
}

/** Every placeholder a text with these sample fields may use. */
function fieldPlaceholders(sample: object): string[] {
  const names = new Set<string>();
  for (const key of Object.keys(sample)) {
    const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    for (const name of [key, snake]) names.add(name).add(`if_${name}`).add(`unless_${name}`);
  }
  return [...names].sort();
}

function checkFields(text: string, sample: object, where: string): void {
  const allowed = fieldPlaceholders(sample);
  for (const m of text.matchAll(/\{([a-z_][a-z0-9_]*)\}/g)) {
    if (allowed.includes(m[1])) continue;
    throw new HarnessError(`${where}: unknown placeholder "{${m[1]}}"`, {
      hint: `Valid placeholders: ${allowed.map((a) => `{${a}}`).join(" ")}`,
    });
  }
}
