// PowerShell cannot run on the Linux CI machine, so these tests check install.ps1 against
// install.sh and scripts/compile.ts by reading it. Keep them failing loudly on any drift.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { TARGETS } from "../../scripts/compile.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const ps1 = await Deno.readTextFile(`${REPO}/install.ps1`);
const sh = await Deno.readTextFile(`${REPO}/install.sh`);

function envVars(text: string): string[] {
  return [...new Set(text.match(/\bINTERPRETER_[A-Z_]+\b/g))].sort();
}

/** The text with comments and quoted strings removed, for counting brackets. */
function code(text: string): string {
  return text.split("\n").map((line) => line.replace(/^\s*#.*$/, "")).join("\n")
    .replace(/"(?:`.|[^"`])*"/g, '""').replace(/'[^']*'/g, "''");
}

Deno.test("install.ps1 reads the same environment variables as install.sh", () => {
  assert.deepEqual(envVars(ps1), [
    "INTERPRETER_INSTALL_BASE_URL",
    "INTERPRETER_INSTALL_DIR",
    "INTERPRETER_VERSION",
  ]);
  assert.deepEqual(envVars(ps1), envVars(sh));
  for (const name of envVars(ps1)) assert.match(ps1, new RegExp(`Get-Setting '${name}'`), name);
});

Deno.test("install.ps1 downloads the Windows asset compile.ts builds, and only that one", () => {
  const windows = TARGETS.filter((t) => t.triple.includes("windows")).map((t) => t.asset);
  assert.deepEqual(windows, ["interpreter-windows-x64.exe"]);
  assert.match(ps1, /^\s*\$Asset = 'interpreter-windows-x64\.exe'$/m);
  const named = ps1.match(/interpreter-(linux|darwin|windows)-[a-z0-9]+(\.exe)?/g) ?? [];
  assert.deepEqual([...new Set(named)], windows);
});

Deno.test("install.ps1 uses the same release URLs as install.sh", () => {
  const releases = "https://github.com/openinterpreter/interpreter/releases";
  assert.match(sh, new RegExp(`^RELEASES_URL="${releases}"$`, "m"));
  assert.match(ps1, new RegExp(`^\\s*\\$ReleasesUrl = '${releases}'$`, "m"));
  assert.match(sh, /^DEFAULT_BASE_URL="\$RELEASES_URL\/latest\/download"$/m);
  assert.match(ps1, /^\s*\$DefaultBaseUrl = "\$ReleasesUrl\/latest\/download"$/m);
  assert.match(sh, /"\$RELEASES_URL\/download\/v\$\{INTERPRETER_VERSION#v\}"/);
  assert.match(ps1, /"\$ReleasesUrl\/download\/v\$\(\$version -replace '\^v', ''\)"/);
});

Deno.test("install.ps1 verifies SHA256SUMS before it installs into ~/.local/bin", () => {
  assert.match(ps1, /Invoke-Download "\$baseUrl\/SHA256SUMS"/);
  assert.match(ps1, /Get-FileHash -Algorithm SHA256/);
  assert.match(ps1, /Join-Path \$HOME '\.local\\bin'/);
  const verify = ps1.indexOf("if ($actual -ne $expected)");
  const install = ps1.indexOf("Move-Item -LiteralPath $staged -Destination $target");
  assert.ok(verify > 0 && install > verify, "the checksum check must come before the move");
});

Deno.test("install.ps1 has balanced brackets outside strings and comments", () => {
  const stripped = code(ps1);
  for (const [open, close] of [["{", "}"], ["(", ")"], ["[", "]"]]) {
    assert.equal(stripped.split(open).length, stripped.split(close).length, `${open}${close}`);
  }
  assert.ok(/^[\t\n\r -~]*$/.test(ps1), "Windows PowerShell 5.1 reads BOM-less files as ANSI");
  assert.doesNotMatch(ps1, /`[ \t]+$/m, "a backtick continuation must end its line");
});
