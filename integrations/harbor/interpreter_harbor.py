"""interpreter as a Harbor installed agent: ``--agent-import-path interpreter_harbor:Interpreter``.

Harbor (https://github.com/harbor-framework/harbor, the Terminal-Bench 2.0 harness) runs trials in
task containers on Docker, Daytona, Modal, E2B and more. This one-file agent lets it run
``interpreter`` there, so a harness A/B scales out to hundreds of trials:

    harbor run -d terminal-bench/terminal-bench-2 --agent-import-path interpreter_harbor:Interpreter \
        -m anthropic/claude-sonnet-4-5 --ak harness=claude-code -e daytona -n 100 -k 5

Install: the release binary goes into the container through our ``install.sh`` (as root, into
``/usr/local/bin``), with curl installed first when neither curl nor wget is there.
Run: ``interpreter exec --json --trajectory <logs>/trajectory.json --skip-git-repo-check
-c harness=<id> -m <model> -s danger-full-access -a never -`` with the instruction on stdin and the
JSONL events kept in ``<logs>/interpreter.jsonl``, where ``<logs>`` is the environment's logs dir
Harbor gives the agent (``environment_logs_dir``; ``/logs/agent`` unless Harbor says otherwise). The task container is the isolation
boundary, so commands run unsandboxed and unapproved (``--ak sandbox=workspace-write`` keeps our
sandbox where the container allows bubblewrap). After the run Harbor's context gets the tokens and
cost from the trajectory's ``final_metrics`` (ATIF-v1.7).

Agent keyword arguments (``--ak key=value``): ``harness`` (a harness id such as ``claude-code``;
default: interpreter picks one for the model), ``sandbox`` (default ``danger-full-access``),
``version`` (a release such as ``0.1.0``; default the latest), ``install_url`` (the directory
holding ``install.sh``, ``SHA256SUMS`` and the binaries, for a mirror or an unreleased build).

Models: Harbor's ``provider/model`` becomes ``-c model_provider=<provider> -m <model>`` (split at
the first ``/``, so ``openrouter/anthropic/claude-sonnet-4.5`` keeps ``anthropic/...`` as the
OpenRouter model); LiteLLM's ``ollama_chat``, ``lm_studio`` and ``zai`` map to our ``ollama``,
``lmstudio`` and ``zhipu``; a name without ``/`` is passed as ``-m`` alone. The provider's API key
(``ANTHROPIC_API_KEY``, ...) is passed from the host environment or ``--ae``.

Harbor versions: written for the installed-agent interface Harbor has had since its rework of
2026-03-24 (``install()``, ``run()``, ``exec_as_root``/``exec_as_agent``,
``populate_context_post_run``): the first release after 0.1.45 through 0.22.0, the newest one
checked. The 0.1.x interface (Jinja install template, ``create_run_agent_commands``, including the
Terminal-Bench 2.0 launch release 0.1.18) is not supported: importing this module there fails with
a message saying so. Python standard library only, besides Harbor.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from pathlib import Path
from typing import Any

from harbor.agents.installed import base as _installed_base

# Checked before any name of the new interface is imported: on Harbor 0.1.x importing
# ``with_prompt_template`` would fail first, with Python's message instead of this one.
if not hasattr(_installed_base.BaseInstalledAgent, "exec_as_root") or not hasattr(
    _installed_base, "with_prompt_template"
):
    raise ImportError(
        "error: interpreter_harbor needs Harbor's installed-agent interface of 2026-03-24 or later\n"
        "hint: upgrade Harbor past 0.1.45 (uv tool install --upgrade harbor)"
    )

from harbor.environments.base import BaseEnvironment  # noqa: E402
from harbor.models.agent.context import AgentContext  # noqa: E402

BaseInstalledAgent = _installed_base.BaseInstalledAgent
with_prompt_template = _installed_base.with_prompt_template

RELEASES_URL = "https://github.com/openinterpreter/interpreter/releases"
INSTALL_DIR = "/usr/local/bin"
SANDBOX_MODES = ("read-only", "workspace-write", "danger-full-access")
# LiteLLM provider names (Harbor's model naming) whose interpreter provider id differs.
PROVIDER_ALIASES = {"ollama_chat": "ollama", "lm_studio": "lmstudio", "zai": "zhipu"}
# The API key variable each built-in provider reads (lib/providers/builtin.ts).
PROVIDER_KEYS = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "moonshot": "MOONSHOT_API_KEY",
    "zhipu": "ZHIPUAI_API_KEY",
    "dashscope": "DASHSCOPE_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
    "ollama-cloud": "OLLAMA_API_KEY",
}
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")

# Installs curl when neither curl nor wget is there, with the package manager the image has.
_ENSURE_DOWNLOADER = (
    "if ! command -v curl >/dev/null 2>&1 && ! command -v wget >/dev/null 2>&1; then "
    "if command -v apt-get >/dev/null 2>&1; then apt-get update -qq && "
    "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl ca-certificates; "
    "elif command -v apk >/dev/null 2>&1; then apk add --no-cache curl ca-certificates; "
    "elif command -v dnf >/dev/null 2>&1; then dnf install -y curl ca-certificates; "
    "elif command -v yum >/dev/null 2>&1; then yum install -y curl ca-certificates; "
    "else echo 'error: neither curl nor wget is installed and no package manager was found' >&2; "
    "exit 1; fi; fi"
)


def model_args(model_name: str | None) -> list[str]:
    """Our ``exec`` arguments for Harbor's ``provider/model`` (or a bare model) name."""
    if not model_name:
        return []
    provider, slash, model = model_name.partition("/")
    if not slash:
        return ["-m", model_name]
    if not provider or not model:
        raise ValueError(
            f'error: the model "{model_name}" is not "provider/model"\n'
            'hint: pass -m like "anthropic/claude-sonnet-4-5" or "ollama/qwen3-coder:30b"'
        )
    provider_id = PROVIDER_ALIASES.get(provider.lower(), provider.lower())
    _check_id("model provider", provider_id)
    return ["-c", f"model_provider={provider_id}", "-m", model]


def provider_of(model_name: str | None) -> str | None:
    """The interpreter provider id a Harbor model name selects, if it names one."""
    args = model_args(model_name)
    return args[1].split("=", 1)[1] if args and args[0] == "-c" else None


def _check_id(what: str, value: str) -> None:
    if not _ID.match(value):
        raise ValueError(
            f'error: "{value}" is not a valid {what}\n'
            "hint: use an id such as claude-code (letters, digits, '-', '_', '.')"
        )


def _totals_from_steps(trajectory: dict[str, Any]) -> dict[str, Any]:
    """ATIF final_metrics summed from per-step metrics, for a trajectory without them."""
    totals: dict[str, Any] = {}
    pairs = (
        ("prompt_tokens", "total_prompt_tokens"),
        ("completion_tokens", "total_completion_tokens"),
        ("cached_tokens", "total_cached_tokens"),
        ("cost_usd", "total_cost_usd"),
    )
    for step in trajectory.get("steps") or []:
        metrics = step.get("metrics") or {}
        for key, total in pairs:
            if isinstance(metrics.get(key), (int, float)):
                totals[total] = totals.get(total, 0) + metrics[key]
    return totals


class Interpreter(BaseInstalledAgent):
    """Runs ``interpreter exec`` in a Harbor task container and reports its tokens and cost."""

    SUPPORTS_ATIF = True
    # Where the agent writes inside the container when Harbor does not say: Harbor sets
    # ``environment_logs_dir`` (the environment's side of the host's <trial>/agent), /logs/agent
    # by default, and releases before it had the attribute always used /logs/agent.
    DEFAULT_AGENT_LOGS_DIR = "/logs/agent"

    def __init__(
        self,
        logs_dir: Path,
        *args: Any,
        harness: str | None = None,
        sandbox: str = "danger-full-access",
        install_url: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(logs_dir, *args, **kwargs)
        if harness is not None:
            _check_id("harness id", str(harness))
        if sandbox not in SANDBOX_MODES:
            raise ValueError(
                f'error: unknown sandbox "{sandbox}"\nhint: use one of {", ".join(SANDBOX_MODES)}'
            )
        self.harness = harness
        self.sandbox = sandbox
        self.install_url = install_url.rstrip("/") if install_url else None
        model_args(self.model_name)  # refuses a malformed model name before any trial starts

    @staticmethod
    def name() -> str:
        return "interpreter"

    @property
    def agent_logs_dir(self) -> str:
        """The environment's logs dir for this agent, as Harbor set it, without a trailing "/"."""
        configured = getattr(self, "environment_logs_dir", None)
        return (str(configured) if configured else self.DEFAULT_AGENT_LOGS_DIR).rstrip("/") or "/"

    def get_version_command(self) -> str | None:
        return "interpreter --version"

    def parse_version(self, stdout: str) -> str:
        found = re.search(r"\d+\.\d+\.\d+\S*", stdout)
        return found.group(0) if found else stdout.strip()

    def _release(self) -> str | None:
        """The release asked for with ``--ak version=...``, without a leading "v"."""
        version = self.version()
        return str(version).removeprefix("v") if version else None

    def install_env(self) -> dict[str, str]:
        """The variables ``install.sh`` reads (install.sh's header documents them)."""
        env = {"INTERPRETER_INSTALL_DIR": INSTALL_DIR}
        version = self._release()
        if self.install_url:
            env["INTERPRETER_INSTALL_BASE_URL"] = self.install_url
        elif version:
            env["INTERPRETER_VERSION"] = version
        return env

    def install_script_url(self) -> str:
        """Where ``install.sh`` is downloaded from: the mirror, the release, or the latest."""
        version = self._release()
        if self.install_url:
            return f"{self.install_url}/install.sh"
        if version:
            return f"{RELEASES_URL}/download/v{version}/install.sh"
        return f"{RELEASES_URL}/latest/download/install.sh"

    def install_commands(self) -> list[str]:
        """The shell commands ``install()`` runs as root, in order."""
        url = shlex.quote(self.install_script_url())
        fetch = f"{{ curl -fsSL --retry 2 {url} || wget -qO- {url}; }} | sh"
        return [_ENSURE_DOWNLOADER, fetch, '"$INTERPRETER_INSTALL_DIR/interpreter" --version']

    async def install(self, environment: BaseEnvironment) -> None:
        env = self.install_env()
        for command in self.install_commands():
            await self.exec_as_root(environment, command=command, env=env)

    def exec_argv(self) -> list[str]:
        """The ``interpreter exec`` command line; the instruction comes on stdin (the ``-``)."""
        argv = ["interpreter", "exec", "--json"]
        argv += ["--trajectory", f"{self.agent_logs_dir}/trajectory.json", "--skip-git-repo-check"]
        if self.harness:
            argv += ["-c", f"harness={self.harness}"]
        argv += model_args(self.model_name)
        return argv + ["-s", self.sandbox, "-a", "never", "-"]

    def run_command(self, instruction: str) -> str:
        """The shell command ``run()`` executes: the instruction piped in, the events kept."""
        events = shlex.quote(f"{self.agent_logs_dir}/interpreter.jsonl")
        return (
            f"printf '%s' {shlex.quote(instruction)} | {shlex.join(self.exec_argv())} "
            f"| tee {events}"
        )

    def run_env(self) -> dict[str, str]:
        """The provider's API key from ``--ae`` or the host environment, when it is set."""
        key = PROVIDER_KEYS.get(provider_of(self.model_name) or "openai")
        if key is None:
            return {}
        extra = getattr(self, "_extra_env", None) or {}
        value = extra.get(key) or os.environ.get(key)
        return {key: value} if value else {}

    @with_prompt_template
    async def run(
        self, instruction: str, environment: BaseEnvironment, context: AgentContext
    ) -> None:
        env = self.run_env()
        await self.exec_as_agent(environment, command=self.run_command(instruction), env=env or None)

    def populate_context_post_run(self, context: AgentContext) -> None:
        """Tokens and cost from ``<trial>/agent/trajectory.json`` (ATIF final_metrics)."""
        path = Path(self.logs_dir) / "trajectory.json"
        try:
            trajectory = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            self.logger.warning(f"interpreter: no usable trajectory at {path}: {error}")
            return
        totals = trajectory.get("final_metrics") or _totals_from_steps(trajectory)
        context.n_input_tokens = totals.get("total_prompt_tokens")
        context.n_output_tokens = totals.get("total_completion_tokens")
        context.n_cache_tokens = totals.get("total_cached_tokens")
        context.cost_usd = totals.get("total_cost_usd")
        # What eval reports per run (failed calls by kind, repairs, loop-guard stops), for
        # Harbor's viewer and for anyone comparing harnesses from the job's result.json.
        extra = (trajectory.get("final_metrics") or {}).get("extra") or {}
        agent_extra = (trajectory.get("agent") or {}).get("extra") or {}
        metadata = {
            key: value
            for key, value in {
                "harness": agent_extra.get("harness"),
                "harness_hash": agent_extra.get("harness_hash"),
                "session_id": trajectory.get("session_id"),
                "run_status": extra.get("run_status"),
                "run_counts": extra.get("run_counts"),
            }.items()
            if value is not None
        }
        if metadata:
            context.metadata = metadata
