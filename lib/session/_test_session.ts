/** Test helper: a git workspace and a config home whose only provider is the fake server. */
import { join } from "node:path";

export async function sessionWorkspace(
  baseUrl: string,
  extraConfig = "",
  opts: { dir?: string } = {},
) {
  const root = await Deno.realPath(
    await Deno.makeTempDir({ dir: opts.dir, prefix: "oi_session_" }),
  );
  const cwd = join(root, "ws");
  const home = join(root, "home");
  await Deno.mkdir(cwd);
  await Deno.mkdir(home);
  await new Deno.Command("git", { args: ["init", "-q"], cwd }).output();
  await Deno.writeTextFile(
    join(home, "config.toml"),
    `model = "fake-model"\nmodel_provider = "fake"\n${extraConfig}\n[model_providers.fake]\n` +
      `name = "Fake"\nbase_url = "${baseUrl}"\nwire_api = "chat"\nenv_key = "FAKE_API_KEY"\n`,
  );
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: root,
    OPENINTERPRETER_HOME: home,
    FAKE_API_KEY: "k",
    NO_COLOR: "1",
  };
  return { cwd, home, env, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }) };
}
