// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
/**
 * `interpreter acp`: the agent for editors that speak the Agent Client Protocol (Zed, JetBrains,
 * Neovim plugins), over stdin and stdout as newline-delimited JSON-RPC, through the official
 * SDK. Stdout carries the protocol and nothing else; logs go to stderr. It runs until the editor
 * closes stdin or a stop signal comes, then stops every turn and closes every session.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { SessionConfig } from "../../session/open.ts";
import { AcpAgent } from "./agent.ts";
import { guarded } from "./errors.ts";

/** The agent app of `agent`: each ACP method routed to it, failures as JSON-RPC errors. */
export function acpApp(agent: AcpAgent): acp.AgentApp {
  const m = acp.methods.agent;
  return acp.agent({ name: "interpreter" })
    .onConnect((connection) => agent.attach(connection.client))
    .onRequest(m.initialize, ({ params }) => guarded(() => agent.initialize(params)))
    .onRequest(m.authenticate, ({ params }) => guarded(() => agent.authenticate(params)))
    .onRequest(m.session.new, ({ params }) => guarded(() => agent.newSession(params)))
    .onRequest(m.session.load, ({ params }) => guarded(() => agent.loadSession(params)))
    .onRequest(m.session.list, ({ params }) => guarded(() => agent.listSessions(params)))
    .onRequest(m.session.close, ({ params }) => guarded(() => agent.closeSession(params)))
    .onRequest(m.session.prompt, ({ params }) => guarded(() => agent.prompt(params)))
    .onRequest(m.session.setMode, ({ params }) => guarded(() => agent.setMode(params)))
    .onRequest(
      m.session.setConfigOption,
      ({ params }) => guarded(() => agent.setConfigOption(params)),
    )
    .onNotification(m.session.cancel, ({ params }) => agent.cancel(params));
}

/** Serves ACP on stdio until stdin ends or a stop signal comes; sessions start from `config`. */
export async function runAcp(config: SessionConfig): Promise<number> {
  keepStdoutForProtocol();
  const log = (line: string) => console.error(`acp: ${line}`);
  await using agent = new AcpAgent(config, { env: Deno.env.toObject(), log });
  const connection = acpApp(agent).connect(
    acp.ndJsonStream(Deno.stdout.writable, Deno.stdin.readable),
  );
  const stop = () => connection.close();
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT"]
    : ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) Deno.addSignalListener(signal, stop);
  try {
    await connection.closed;
  } finally {
    for (const signal of signals) Deno.removeSignalListener(signal, stop);
  }
  // `agent` stops the running turns and closes every session here.
  return 0;
}

/**
 * Sends what anything would print to stdout to stderr instead: stdout carries the protocol, and
 * a stray line there would break the editor's reading of it.
 */
function keepStdoutForProtocol(): void {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
}
