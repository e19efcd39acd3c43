/** What the REPL's terminal tests share: a scripted model, a repository copy and a config home. */
import { join } from "node:path";
import {
  type FakeProviderOptions,
  type ScriptTurn,
  startFakeProvider,
} from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo } from "./_harness_env.ts";
import { until } from "./_poll.ts";

/** Options of `replEnv()`: the fake provider's, and how the config home is made. */
export interface ReplEnvOptions extends FakeProviderOptions {
  /** More top-level keys for the config that points at the fake (Chat wire). */
  config?: string;
  /** The whole `config.toml` instead, given the fake's base URL; "" writes none (a first run). */
  homeConfig?: (baseUrl: string) => string;
}

/** The fake provider serving `turns`, a copy of the habits repository and a config home. */
export async function replEnv(turns: ScriptTurn[], opts: ReplEnvOptions = {}) {
  const { config, homeConfig, ...fakeOptions } = opts;
  const fake = startFakeProvider(turns, fakeOptions);
  const repo = await fixtureRepo("habits");
  let home: string;
  if (homeConfig === undefined) home = await fakeHome(fake.baseUrl, "chat", config);
  else {
    home = await Deno.makeTempDir({ prefix: "oi-home-" });
    const text = homeConfig(fake.baseUrl);
    if (text) await Deno.writeTextFile(join(home, "config.toml"), text);
  }
  return {
    fake,
    repo,
    home,
    /** A file of the repository, or undefined when there is none. */
    read: (name: string) => Deno.readTextFile(join(repo, name)).catch(() => undefined),
    async [Symbol.asyncDispose]() {
      await fake.close();
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(home, { recursive: true });
    },
  };
}

/** Waits until `file` exists and its text matches `pattern`; returns the text. */
export async function waitForFile(file: string, pattern = /(?:)/): Promise<string> {
  let text: string | undefined;
  await until(`${pattern} in "${file}"`, async () => {
    text = await Deno.readTextFile(file).catch(() => undefined);
    return text !== undefined && pattern.test(text);
  }, 15_000).catch((error) => {
    throw new Error(`${error.message}:\n${text ?? "(no file)"}`);
  });
  return text!;
}
