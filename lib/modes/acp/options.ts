/**
 * What an editor can switch in a session: the mode (read-only, workspace-write, full-access, as
 * the OI fork offers them), and as session config options the mode again, the model, the
 * reasoning effort and the harness, so that a harness can be chosen from the editor's menu.
 */
import type {
  SessionConfigOption,
  SessionConfigSelectGroup,
  SessionConfigSelectOption,
  SessionMode,
  SessionModeState,
} from "@agentclientprotocol/sdk";
import { REASONING_EFFORTS } from "../../config/schema.ts";
import { UsageError } from "../../errors.ts";
import type {
  ApprovalPolicy,
  ReasoningEffort,
  SandboxMode,
  Session,
  SessionConfig,
} from "../../session/types.ts";

/** The modes a session can be in. */
export type ModeId = "read-only" | "workspace-write" | "full-access";

/** The config option ids. */
export const OPTION_IDS = {
  mode: "mode",
  model: "model",
  effort: "reasoning_effort",
  harness: "harness",
} as const;

const MODES: Array<SessionMode & { id: ModeId; sandbox: SandboxMode; approval: ApprovalPolicy }> = [
  {
    id: "read-only",
    name: "Read Only",
    description: "Reads files and runs known-safe commands; asks before anything else; " +
      "changes no files",
    sandbox: "read-only",
    approval: "untrusted",
  },
  {
    id: "workspace-write",
    name: "Workspace Write",
    description: "Works in the project in a sandbox; asks before edits and commands that are " +
      "not known safe",
    sandbox: "workspace-write",
    approval: "untrusted",
  },
  {
    id: "full-access",
    name: "Full Access",
    description: "Runs commands and edits without a sandbox and without asking",
    sandbox: "danger-full-access",
    approval: "never",
  },
];

/** Whether `id` names a mode. */
export function isModeId(id: string): id is ModeId {
  return MODES.some((m) => m.id === id);
}

/** The mode a session starts in: full-access or read-only when the flags ask for that sandbox. */
export function initialMode(config: SessionConfig): ModeId {
  if (config.sandbox === "danger-full-access") return "full-access";
  return config.sandbox === "read-only" ? "read-only" : "workspace-write";
}

/** The settings of `mode`: its sandbox mode and approval policy. */
export function modeSettings(
  mode: ModeId,
): { sandboxMode: SandboxMode; approvalPolicy: ApprovalPolicy } {
  const { sandbox, approval } = MODES.find((m) => m.id === mode)!;
  return { sandboxMode: sandbox, approvalPolicy: approval };
}

/** `config` in `mode`: its sandbox and approval policy. */
export function inMode(config: SessionConfig, mode: ModeId): SessionConfig {
  const { sandbox, approval } = MODES.find((m) => m.id === mode)!;
  const label = `the editor's "${mode}" mode`;
  return {
    ...config,
    sandbox,
    approval,
    labels: { ...config.labels, sandbox: label, approval: label },
  };
}

/** The `modes` of a `session/new` or `session/load` answer. */
export function modeState(mode: ModeId): SessionModeState {
  return {
    currentModeId: mode,
    availableModes: MODES.map(({ id, name, description }) => ({ id, name, description })),
  };
}

/** Every config option of `session`, with its current value. */
export async function configOptions(
  session: Session,
  mode: ModeId,
): Promise<SessionConfigOption[]> {
  const [models, harnesses] = await Promise.all([session.models(), session.harnesses()]);
  const { provider, model, reasoningEffort: effort } = session.settings;
  return [
    {
      id: OPTION_IDS.mode,
      name: "Mode",
      category: "mode",
      type: "select",
      currentValue: mode,
      options: MODES.map(({ id, name, description }) => ({ value: id, name, description })),
    },
    {
      id: OPTION_IDS.model,
      name: "Model",
      category: "model",
      type: "select",
      currentValue: `${provider}/${model}`,
      options: modelGroups(models, `${provider}/${model}`),
    },
    {
      id: OPTION_IDS.effort,
      name: "Reasoning effort",
      category: "thought_level",
      type: "select",
      currentValue: effort ?? "default",
      options: [
        ...(effort ? [] : [{ value: "default", name: "Model default" }]),
        ...REASONING_EFFORTS.map((e) => ({ value: e, name: e })),
      ],
    },
    {
      id: OPTION_IDS.harness,
      name: "Harness",
      description: "The tools and prompt the model is shown; switching keeps the conversation",
      type: "select",
      currentValue: session.settings.harness,
      options: harnesses.map((h): SessionConfigSelectOption => ({
        value: h.id,
        name: h.label,
        ...(h.automatic ? { description: "the automatic choice for this model" } : {}),
      })),
    },
  ];
}

/** The models of the providers one can use now (a key set), grouped by provider. */
function modelGroups(
  providers: Awaited<ReturnType<Session["models"]>>,
  current: string,
): SessionConfigSelectGroup[] {
  const groups = providers.filter((p) => p.key || p.current).map((p) => {
    const options = p.models.map((m): SessionConfigSelectOption => ({
      value: `${p.provider}/${m.id}`,
      name: m.name,
    }));
    if (p.current && !options.some((o) => o.value === current)) {
      options.unshift({ value: current, name: p.model });
    }
    return { group: p.provider, name: p.name, options };
  });
  return groups.filter((g) => g.options.length > 0);
}

/** The effort `value` names; a `UsageError` for one that is not an effort. */
export function effortOf(value: string): ReasoningEffort {
  const found = REASONING_EFFORTS.find((e) => e === value);
  if (found) return found;
  throw new UsageError(`Cannot set the reasoning effort to "${value}"`, {
    hint: `Choose one of ${REASONING_EFFORTS.join(", ")}`,
  });
}
