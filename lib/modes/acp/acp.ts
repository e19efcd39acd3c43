/**
 * `interpreter acp`: the agent for editors that speak the Agent Client Protocol (Zed, JetBrains,
 * Neovim plugins), over stdin and stdout as newline-delimited JSON-RPC, through the official
 * SDK on the stdio runner (`session/stdio_protocol.ts`). It runs until the editor closes stdin or
 * a stop signal comes, then stops every turn and closes every session.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { SessionConfig } from "../../session/open.ts";
import { serveStdio } from "../../session/stdio_protocol.ts";
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

/**
 * Serves ACP on stdio (`serveStdio`) until stdin ends or a stop signal comes; sessions start from
 * `config`.
 */
export function runAcp(config: SessionConfig): Promise<number> {
  return serveStdio({
    name: "acp",
    open: (log) => new AcpAgent(config, { env: Deno.env.toObject(), log }),
    connect(agent, messages) {
      const connection = acpApp(agent).connect(messages);
      return Promise.resolve({ closed: connection.closed, close: () => connection.close() });
    },
  });
}
