import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { TARGETS } from "../../scripts/compile.ts";
import { need } from "../../sandbox/_test_requires.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const INSTALL_SH = `${REPO}/install.sh`;

/** A fake release binary: a shell script that says which asset it is. */
function fakeBinary(asset: string): string {
  return `#!/bin/sh\necho "interpreter 9.9.9 (${asset})"\n`;
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA256SUMS for every release asset, as scripts/compile.ts writes it. */
async function sha256sums(): Promise<string> {
  const lines = [];
  for (const { asset } of TARGETS) lines.push(`${await sha256(fakeBinary(asset))}  ${asset}`);
  return lines.join("\n") + "\n";
}

interface Release extends AsyncDisposable {
  baseUrl: string;
  /** Paths requested so far, in order. */
  requests: string[];
}

/** Serves `files` under `/dl/` on 127.0.0.1; anything else is a 404. */
function serveRelease(files: Record<string, string>): Release {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    requests.push(path);
    const body = path.startsWith("/dl/") ? files[path.slice("/dl/".length)] : undefined;
    return body === undefined ? new Response("not found", { status: 404 }) : new Response(body);
  });
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}/dl`,
    requests,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

async function defaultRelease(): Promise<Release> {
  const files: Record<string, string> = { SHA256SUMS: await sha256sums() };
  for (const { asset } of TARGETS) files[asset] = fakeBinary(asset);
  return serveRelease(files);
}

interface Home extends AsyncDisposable {
  home: string;
  bin: string;
}

async function tempHome(): Promise<Home> {
  const home = await Deno.makeTempDir({ prefix: "install_sh_home_" });
  return {
    home,
    bin: `${home}/.local/bin`,
    [Symbol.asyncDispose]: () => Deno.remove(home, { recursive: true }),
  };
}

async function installSh(env: Record<string, string>) {
  const out = await new Deno.Command("sh", {
    args: [INSTALL_SH],
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", NO_PROXY: "127.0.0.1", ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(30_000),
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

async function runText(cmd: string, args: string[] = []): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped" }).output();
  assert.equal(out.code, 0);
  return new TextDecoder().decode(out.stdout).trim();
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}

/** A PATH directory where `uname` reports another system and every other program is real. */
async function fakeUnamePath(dir: string, os: string, arch: string): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/uname`,
    `#!/bin/sh\ncase "$1" in -s) echo "${os}" ;; -m) echo "${arch}" ;; *) exit 1 ;; esac\n`,
  );
  await Deno.chmod(`${dir}/uname`, 0o755);
  return `${dir}:${Deno.env.get("PATH")}`;
}

const LINUX_X64 = Deno.build.os === "linux" && Deno.build.arch === "x86_64";

Deno.test("install.sh installs the verified binary and the i alias into ~/.local/bin", async () => {
  await using release = await defaultRelease();
  await using home = await tempHome();
  const out = await installSh({ HOME: home.home, INTERPRETER_INSTALL_BASE_URL: release.baseUrl });
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(await listDir(home.bin), ["i", "interpreter"]);
  assert.equal(await Deno.readLink(`${home.bin}/i`), "interpreter");
  const version = await runText(`${home.bin}/i`, ["--version"]);
  assert.match(version, /^interpreter 9\.9\.9 \(interpreter-(linux|darwin)-(x64|arm64)\)$/);
  if (LINUX_X64) assert.equal(version, "interpreter 9.9.9 (interpreter-linux-x64)");
  assert.equal(await runText(`${home.bin}/interpreter`, ["--version"]), version);
  assert.match(out.stdout, /^hint: .*\.local\/bin is not on your PATH/m);
});

Deno.test("install.sh honors INTERPRETER_INSTALL_DIR, replaces an old install and stays quiet about PATH", async () => {
  await using release = await defaultRelease();
  await using home = await tempHome();
  const dir = `${home.home}/custom bin`;
  await Deno.mkdir(dir);
  await Deno.writeTextFile(`${dir}/interpreter`, "#!/bin/sh\necho old\n");
  await Deno.symlink("interpreter", `${dir}/i`);
  const out = await installSh({
    HOME: home.home,
    INTERPRETER_INSTALL_BASE_URL: `${release.baseUrl}/`,
    INTERPRETER_INSTALL_DIR: dir,
    PATH: `${dir}:${Deno.env.get("PATH")}`,
  });
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(await listDir(dir), ["i", "interpreter"]);
  assert.match(await runText(`${dir}/i`, ["--version"]), /^interpreter 9\.9\.9 /);
  assert.doesNotMatch(out.stdout, /not on your PATH/);
});

Deno.test("install.sh leaves an unrelated i alone", async () => {
  await using release = await defaultRelease();
  await using home = await tempHome();
  await Deno.mkdir(home.bin, { recursive: true });
  await Deno.writeTextFile(`${home.bin}/i`, "mine\n");
  const out = await installSh({ HOME: home.home, INTERPRETER_INSTALL_BASE_URL: release.baseUrl });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(await Deno.readTextFile(`${home.bin}/i`), "mine\n");
  assert.match(out.stdout, /^note: not creating the alias/m);
});

Deno.test("install.sh refuses a binary whose checksum does not match and installs nothing", async () => {
  const files: Record<string, string> = { SHA256SUMS: await sha256sums() };
  for (const { asset } of TARGETS) files[asset] = fakeBinary(asset) + "# tampered\n";
  await using release = serveRelease(files);
  await using home = await tempHome();
  const out = await installSh({ HOME: home.home, INTERPRETER_INSTALL_BASE_URL: release.baseUrl });
  assert.notEqual(out.code, 0);
  assert.match(
    out.stderr,
    /^error: Checksum mismatch for "interpreter-[a-z]+-[a-z0-9]+": expected [0-9a-f]{64}, got [0-9a-f]{64}; nothing was installed$/m,
  );
  assert.match(out.stderr, /^hint: /m);
  assert.deepEqual(await listDir(home.bin), []);
});

Deno.test("install.sh refuses a release whose SHA256SUMS lacks the asset", async () => {
  const files: Record<string, string> = { SHA256SUMS: `${"0".repeat(64)}  something-else\n` };
  for (const { asset } of TARGETS) files[asset] = fakeBinary(asset);
  await using release = serveRelease(files);
  await using home = await tempHome();
  const out = await installSh({ HOME: home.home, INTERPRETER_INSTALL_BASE_URL: release.baseUrl });
  assert.notEqual(out.code, 0);
  assert.match(out.stderr, /^error: SHA256SUMS has no entry for "interpreter-/m);
  assert.deepEqual(await listDir(home.bin), []);
});

Deno.test("install.sh fails on a missing file (404) and installs nothing", async () => {
  await using release = serveRelease({ SHA256SUMS: await sha256sums() });
  await using home = await tempHome();
  const out = await installSh({ HOME: home.home, INTERPRETER_INSTALL_BASE_URL: release.baseUrl });
  assert.notEqual(out.code, 0);
  assert.match(out.stderr, /^error: Cannot download "http:\/\/127\.0\.0\.1:\d+\/dl\/interpreter-/m);
  assert.deepEqual(await listDir(home.bin), []);
});

Deno.test("install.sh downloads each uname combination's asset, as named by compile.ts", async () => {
  await using release = await defaultRelease();
  await using home = await tempHome();
  const cases: [string, string, string][] = [
    ["Linux", "x86_64", "interpreter-linux-x64"],
    ["Linux", "aarch64", "interpreter-linux-arm64"],
    ["Darwin", "x86_64", "interpreter-darwin-x64"],
    ["Darwin", "arm64", "interpreter-darwin-arm64"],
  ];
  for (const [os, arch, asset] of cases) {
    assert.ok(TARGETS.some((t) => t.asset === asset), `${asset} is not built by compile.ts`);
    const dir = `${home.home}/${os}-${arch}`;
    const out = await installSh({
      HOME: home.home,
      INTERPRETER_INSTALL_BASE_URL: release.baseUrl,
      INTERPRETER_INSTALL_DIR: dir,
      PATH: await fakeUnamePath(`${home.home}/fake-${os}-${arch}`, os, arch),
    });
    assert.equal(out.code, 0, out.stderr);
    assert.equal(
      await runText(`${dir}/interpreter`, ["--version"]),
      `interpreter 9.9.9 (${asset})`,
    );
  }
  const windows = await installSh({
    HOME: home.home,
    INTERPRETER_INSTALL_BASE_URL: release.baseUrl,
    PATH: await fakeUnamePath(`${home.home}/fake-win`, "MINGW64_NT-10.0-19045", "x86_64"),
  });
  assert.notEqual(windows.code, 0);
  assert.match(windows.stderr, /^hint: on Windows, run install\.ps1 in PowerShell$/m);
});

Deno.test("install.sh builds the GitHub URL from INTERPRETER_VERSION", async () => {
  await using home = await tempHome();
  // curl is replaced by a stub that records the URL it was asked for, then fails.
  const bin = `${home.home}/stub`;
  await Deno.mkdir(bin);
  await Deno.writeTextFile(
    `${bin}/curl`,
    `#!/bin/sh\nfor a; do last=$a; done\necho "$last" >> "${home.home}/urls"\nexit 22\n`,
  );
  await Deno.chmod(`${bin}/curl`, 0o755);
  const out = await installSh({
    HOME: home.home,
    INTERPRETER_VERSION: "v1.2.3",
    PATH: `${bin}:${Deno.env.get("PATH")}`,
  });
  assert.notEqual(out.code, 0);
  const url = (await Deno.readTextFile(`${home.home}/urls`)).trim();
  assert.match(
    url,
    /^https:\/\/github\.com\/openinterpreter\/interpreter\/releases\/download\/v1\.2\.3\/interpreter-/,
  );
});

const WGET = await need("wget");

Deno.test({
  name: "install.sh works with wget when curl is missing" + WGET.note,
  ignore: WGET.ignore,
  async fn() {
    await using release = await defaultRelease();
    await using home = await tempHome();
    // A PATH of symlinks to every program in /usr/bin and /bin except curl.
    const bin = `${home.home}/no-curl`;
    await Deno.mkdir(bin);
    for (const dir of ["/usr/bin", "/bin"]) {
      for await (const entry of Deno.readDir(dir)) {
        if (entry.name === "curl") continue;
        await Deno.symlink(`${dir}/${entry.name}`, `${bin}/${entry.name}`).catch(() => {});
      }
    }
    const out = await installSh({
      HOME: home.home,
      INTERPRETER_INSTALL_BASE_URL: release.baseUrl,
      PATH: bin,
    });
    assert.equal(out.code, 0, out.stderr);
    assert.match(await runText(`${home.bin}/i`, ["--version"]), /^interpreter 9\.9\.9 /);
    assert.ok(release.requests.some((path) => path.endsWith("/SHA256SUMS")));
  },
});
