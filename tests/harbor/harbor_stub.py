"""A minimal stand-in for the parts of Harbor an installed agent uses (Harbor is not installable here).

Written from Harbor 0.22.0's interface (/work/shared/reference/harbor.md section 4):
``harbor.agents.base.BaseAgent``, ``harbor.agents.installed.base.BaseInstalledAgent`` (constructor,
``setup`` -> ``install`` -> version probe, ``exec_as_root``/``exec_as_agent`` with the
``set -o pipefail;`` prefix and ``NonZeroAgentExitCodeError``, ``with_prompt_template``),
``harbor.environments.base.BaseEnvironment`` and ``harbor.models.agent.context.AgentContext``.
``install()`` puts these modules into ``sys.modules``; ``FakeEnvironment`` records every exec.
"""

from __future__ import annotations

import functools
import logging
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any


class NonZeroAgentExitCodeError(RuntimeError):
    """Raised when a command the agent runs exits non-zero."""


@dataclass
class ExecResult:
    stdout: str | None = None
    stderr: str | None = None
    return_code: int = 0


@dataclass
class AgentContext:
    n_input_tokens: int | None = None
    n_cache_tokens: int | None = None
    n_output_tokens: int | None = None
    cost_usd: float | None = None
    rollout_details: list | None = None
    metadata: dict | None = None

    def is_empty(self) -> bool:
        return all(value is None for value in vars(self).values())


class BaseEnvironment:
    """Harbor's environment interface: ``exec`` runs a shell command in the task container."""

    default_user: str | int | None = None

    async def exec(self, command: str, cwd=None, env=None, timeout_sec=None, user=None):
        raise NotImplementedError


@dataclass
class ExecCall:
    command: str
    user: str | int | None
    env: dict[str, str] | None
    cwd: str | None


@dataclass
class FakeEnvironment(BaseEnvironment):
    """Records each exec; answers ``--version`` probes with ``version_output``."""

    calls: list[ExecCall] = field(default_factory=list)
    version_output: str = "interpreter 0.1.0 (commit fed4645f9d6d)\n"

    async def exec(self, command: str, cwd=None, env=None, timeout_sec=None, user=None):
        self.calls.append(ExecCall(command, user, env, cwd))
        stdout = self.version_output if command.endswith("--version") else ""
        return ExecResult(stdout=stdout, stderr="", return_code=0)


class BaseAgent:
    SUPPORTS_ATIF = False

    def __init__(
        self,
        logs_dir: Path,
        model_name: str | None = None,
        logger: logging.Logger | None = None,
        mcp_servers: list | None = None,
        skills_dir: str | None = None,
        *args: Any,
        extra_env: dict[str, str] | None = None,
        environment_logs_dir: PurePosixPath | None = None,
        **kwargs: Any,
    ) -> None:
        self.logs_dir = logs_dir
        # As in Harbor 0.22.0: the environment's side of logs_dir, /logs/agent unless given.
        self.environment_logs_dir = environment_logs_dir or PurePosixPath("/logs/agent")
        self.model_name = model_name
        self.logger = logger or logging.getLogger("harbor_stub")
        self._extra_env = dict(extra_env or {})
        self.unknown_kwargs = kwargs


def with_prompt_template(fn):
    @functools.wraps(fn)
    async def wrapper(self, instruction: str, *args: Any, **kwargs: Any):
        return await fn(self, self.render_instruction(instruction), *args, **kwargs)

    return wrapper


class BaseInstalledAgent(BaseAgent):
    def __init__(
        self,
        logs_dir: Path,
        prompt_template_path: Path | str | None = None,
        version: str | None = None,
        extra_env: dict[str, str] | None = None,
        *args: Any,
        config: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(logs_dir, *args, extra_env=extra_env, **kwargs)
        self._prompt_template_path = prompt_template_path
        self._version = version

    def version(self) -> str | None:
        return self._version

    def get_version_command(self) -> str | None:
        return None

    def parse_version(self, stdout: str) -> str:
        return stdout.strip()

    def render_instruction(self, instruction: str) -> str:
        return instruction

    async def setup(self, environment: BaseEnvironment) -> None:
        await self.exec_as_root(environment, command="mkdir -p /installed-agent")
        (Path(self.logs_dir) / "setup").mkdir(parents=True, exist_ok=True)
        await self.install(environment)
        command = self.get_version_command()
        if self._version is None and command:
            result = await environment.exec(command=command)
            self._version = self.parse_version(result.stdout or "")

    async def _exec(self, environment, command, user=None, env=None, cwd=None, timeout_sec=None):
        result = await environment.exec(
            command=f"set -o pipefail; {command}", user=user, env=env, cwd=cwd,
            timeout_sec=timeout_sec,
        )
        if result.return_code != 0:
            raise NonZeroAgentExitCodeError(f"Command failed (exit {result.return_code})")
        return result

    async def exec_as_root(self, environment, command, env=None, cwd=None, timeout_sec=None):
        return await self._exec(environment, command, "root", env, cwd, timeout_sec)

    async def exec_as_agent(self, environment, command, env=None, cwd=None, timeout_sec=None):
        return await self._exec(environment, command, None, env, cwd, timeout_sec)


class LegacyInstalledAgent(BaseAgent):
    """Harbor 0.1.x's installed-agent base: a Jinja install template and run commands."""

    def create_run_agent_commands(self, instruction: str) -> list:
        return []


def install(legacy: bool = False) -> None:
    """Registers the stand-in as the ``harbor`` package (only the modules an agent imports).

    ``legacy`` registers Harbor 0.1.x's ``harbor.agents.installed.base`` instead: no
    ``exec_as_root`` and no ``with_prompt_template``.
    """
    modules = {
        "harbor": {},
        "harbor.agents": {},
        "harbor.agents.base": {"BaseAgent": BaseAgent},
        "harbor.agents.installed": {},
        "harbor.agents.installed.base": {
            "BaseInstalledAgent": BaseInstalledAgent,
            "NonZeroAgentExitCodeError": NonZeroAgentExitCodeError,
            "with_prompt_template": with_prompt_template,
        },
        "harbor.environments": {},
        "harbor.environments.base": {"BaseEnvironment": BaseEnvironment, "ExecResult": ExecResult},
        "harbor.models": {},
        "harbor.models.agent": {},
        "harbor.models.agent.context": {"AgentContext": AgentContext},
    }
    if legacy:
        modules["harbor.agents.installed.base"] = {"BaseInstalledAgent": LegacyInstalledAgent}
    for name, attrs in modules.items():
        module = types.ModuleType(name)
        module.__dict__.update(attrs)
        sys.modules[name] = module
