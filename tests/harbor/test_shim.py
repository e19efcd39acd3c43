"""Tests of integrations/harbor/interpreter_harbor.py against a stand-in for Harbor.

Run: python3 tests/harbor/test_shim.py (tests/harbor/shim_test.ts runs it under scripts/test).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.dont_write_bytecode = True  # leave no __pycache__ in the checkout
HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "integrations" / "harbor"))

import harbor_stub  # noqa: E402

harbor_stub.install()
import interpreter_harbor  # noqa: E402
from interpreter_harbor import Interpreter, model_args  # noqa: E402

FIXTURE = HERE / "fixtures" / "trajectory_atif_v1_4.json"
MODEL = "anthropic/claude-sonnet-4-5"
LATEST = "https://github.com/openinterpreter/interpreter/releases/latest/download/install.sh"


def make_agent(logs_dir: Path, **kwargs) -> Interpreter:
    """The agent as Harbor's factory builds it: logs_dir, model_name and --ak values by keyword."""
    return Interpreter(logs_dir=logs_dir, **kwargs)


class TempDirCase(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="interpreter-harbor-"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)


class FixtureTest(unittest.TestCase):
    """The sample trajectory follows ATIF-v1.4 as Harbor validates it (harbor.md section 3)."""

    ROOT = {"schema_version", "session_id", "agent", "steps", "notes", "final_metrics", "extra"}
    STEP = {
        "step_id", "timestamp", "source", "model_name", "reasoning_effort", "message",
        "reasoning_content", "tool_calls", "observation", "metrics", "extra",
    }
    AGENT_ONLY = {"model_name", "reasoning_effort", "reasoning_content", "tool_calls", "metrics"}
    METRICS = {
        "prompt_tokens", "completion_tokens", "cached_tokens", "cost_usd", "prompt_token_ids",
        "completion_token_ids", "logprobs", "extra",
    }
    FINAL = {
        "total_prompt_tokens", "total_completion_tokens", "total_cached_tokens",
        "total_cost_usd", "total_steps", "extra",
    }

    def test_fixture_is_valid_atif_v1_4(self) -> None:
        from datetime import datetime

        data = json.loads(FIXTURE.read_text())
        self.assertEqual(data["schema_version"], "ATIF-v1.4")
        self.assertLessEqual(set(data), self.ROOT)
        self.assertLessEqual({"name", "version"}, set(data["agent"]))
        self.assertLessEqual(set(data["agent"]), {"name", "version", "model_name", "extra"})
        self.assertLessEqual(set(data["final_metrics"]), self.FINAL)
        for index, step in enumerate(data["steps"]):
            self.assertEqual(step["step_id"], index + 1)
            self.assertLessEqual(set(step), self.STEP)
            self.assertIn(step["source"], ("system", "user", "agent"))
            self.assertIsInstance(step["message"], str)
            datetime.fromisoformat(step["timestamp"].replace("Z", "+00:00"))
            if step["source"] != "agent":
                self.assertFalse(self.AGENT_ONLY & set(step), f"step {index + 1}")
            self.assertLessEqual(set(step.get("metrics", {})), self.METRICS)
            call_ids = {call["tool_call_id"] for call in step.get("tool_calls", [])}
            for call in step.get("tool_calls", []):
                self.assertEqual(set(call), {"tool_call_id", "function_name", "arguments"})
            for result in step.get("observation", {}).get("results", []):
                self.assertLessEqual(set(result), {"source_call_id", "content", "subagent_trajectory_ref"})
                self.assertIn(result["source_call_id"], call_ids)


class InstallTest(TempDirCase):
    def test_setup_installs_the_release_binary_as_root(self) -> None:
        agent = make_agent(self.tmp, model_name=MODEL, harness="claude-code")
        env = harbor_stub.FakeEnvironment()
        asyncio.run(agent.setup(env))
        commands = [call.command for call in env.calls]
        self.assertEqual(commands[0], "set -o pipefail; mkdir -p /installed-agent")
        self.assertIn("apt-get install -y -qq curl ca-certificates", commands[1])
        self.assertEqual(
            commands[2],
            f"set -o pipefail; {{ curl -fsSL --retry 2 {LATEST} || wget -qO- {LATEST}; }} | sh",
        )
        self.assertEqual(commands[3], 'set -o pipefail; "$INTERPRETER_INSTALL_DIR/interpreter" --version')
        self.assertEqual(commands[4], "interpreter --version")  # Harbor's version probe
        for call in env.calls[1:4]:
            self.assertEqual(call.user, "root")
            self.assertEqual(call.env, {"INTERPRETER_INSTALL_DIR": "/usr/local/bin"})
        self.assertEqual(agent.version(), "0.1.0")
        self.assertTrue((self.tmp / "setup").is_dir())

    def test_version_and_mirror_choose_where_install_sh_comes_from(self) -> None:
        pinned = make_agent(self.tmp, version="v0.2.1")
        self.assertEqual(
            pinned.install_script_url(),
            "https://github.com/openinterpreter/interpreter/releases/download/v0.2.1/install.sh",
        )
        self.assertEqual(pinned.install_env()["INTERPRETER_VERSION"], "0.2.1")
        mirror = make_agent(self.tmp, version="0.2.1", install_url="https://mirror.example/i/")
        self.assertEqual(mirror.install_script_url(), "https://mirror.example/i/install.sh")
        self.assertEqual(
            mirror.install_env(),
            {
                "INTERPRETER_INSTALL_DIR": "/usr/local/bin",
                "INTERPRETER_INSTALL_BASE_URL": "https://mirror.example/i",
            },
        )

    @unittest.skipUnless(
        shutil.which("bash") and shutil.which("curl") and shutil.which("bwrap"),
        "needs bash, curl and bwrap (without bwrap install.sh would try to install it)",
    )
    def test_install_commands_install_a_release_with_the_real_install_sh(self) -> None:
        release = self.tmp / "release"
        release.mkdir()
        shutil.copy(REPO / "install.sh", release / "install.sh")
        arch = "arm64" if platform.machine() in ("aarch64", "arm64") else "x64"
        system = "darwin" if sys.platform == "darwin" else "linux"
        asset = release / f"interpreter-{system}-{arch}"
        asset.write_text("#!/bin/sh\necho 'interpreter 9.8.7 (commit 0000000)'\n")
        digest = hashlib.sha256(asset.read_bytes()).hexdigest()
        (release / "SHA256SUMS").write_text(f"{digest}  {asset.name}\n")
        agent = make_agent(self.tmp, install_url=release.as_uri())
        env = {**os.environ, **agent.install_env(), "INTERPRETER_INSTALL_DIR": str(self.tmp / "bin")}
        outputs = []
        for command in agent.install_commands():
            done = subprocess.run(
                ["bash", "-c", f"set -o pipefail; {command}"], env=env, capture_output=True,
                text=True, timeout=60,
            )
            self.assertEqual(done.returncode, 0, f"{command}\n{done.stdout}\n{done.stderr}")
            outputs.append(done.stdout)
        self.assertEqual(outputs[-1].strip(), "interpreter 9.8.7 (commit 0000000)")
        self.assertEqual(agent.parse_version(outputs[-1]), "9.8.7")


class RunTest(TempDirCase):
    def test_run_pipes_the_instruction_into_interpreter_exec(self) -> None:
        agent = make_agent(
            self.tmp, model_name=MODEL, harness="claude-code",
            extra_env={"ANTHROPIC_API_KEY": "sk-ant-test"},
        )
        env = harbor_stub.FakeEnvironment()
        context = harbor_stub.AgentContext()
        asyncio.run(agent.run("Fix the bug in 'app.py'.\n", env, context))
        self.assertEqual(len(env.calls), 1)
        call = env.calls[0]
        self.assertEqual(
            call.command,
            "set -o pipefail; printf '%s' 'Fix the bug in '\"'\"'app.py'\"'\"'.\n' | "
            "interpreter exec --json --trajectory /logs/agent/trajectory.json "
            "--skip-git-repo-check -c harness=claude-code -c model_provider=anthropic "
            "-m claude-sonnet-4-5 -s danger-full-access -a never - "
            "| tee /logs/agent/interpreter.jsonl",
        )
        self.assertIsNone(call.user)  # the task's agent user, not root
        self.assertEqual(call.env, {"ANTHROPIC_API_KEY": "sk-ant-test"})
        self.assertTrue(context.is_empty())  # Harbor fills it after the logs are synced

    def test_harness_sandbox_and_model_reach_the_command_line(self) -> None:
        agent = make_agent(
            self.tmp, model_name="ollama/qwen3-coder:30b", harness="minimal",
            sandbox="workspace-write",
        )
        self.assertEqual(
            agent.exec_argv(),
            [
                "interpreter", "exec", "--json", "--trajectory", "/logs/agent/trajectory.json",
                "--skip-git-repo-check", "-c", "harness=minimal", "-c", "model_provider=ollama",
                "-m", "qwen3-coder:30b", "-s", "workspace-write", "-a", "never", "-",
            ],
        )
        self.assertEqual(agent.run_env(), {})  # Ollama needs no key
        automatic = make_agent(self.tmp)
        self.assertNotIn("-m", automatic.exec_argv())
        self.assertFalse(any(arg.startswith("harness=") for arg in automatic.exec_argv()))

    def test_the_run_writes_to_the_logs_dir_harbor_gives(self) -> None:
        from pathlib import PurePosixPath

        agent = make_agent(
            self.tmp, model_name=MODEL, environment_logs_dir=PurePosixPath("/var/harbor/agent/"),
        )
        argv = agent.exec_argv()
        self.assertEqual(argv[argv.index("--trajectory") + 1], "/var/harbor/agent/trajectory.json")
        command = agent.run_command("hi")
        self.assertTrue(command.endswith("| tee /var/harbor/agent/interpreter.jsonl"), command)
        self.assertNotIn("/logs/agent", command)
        # A Harbor without the attribute (before environment_logs_dir existed): /logs/agent.
        older = make_agent(self.tmp, model_name=MODEL)
        del older.environment_logs_dir
        self.assertIn("/logs/agent/trajectory.json", older.exec_argv())

    def test_harbor_model_names_map_to_our_provider_and_model(self) -> None:
        cases = {
            "openai/gpt-5": ["-c", "model_provider=openai", "-m", "gpt-5"],
            "openrouter/anthropic/claude-sonnet-4.5": [
                "-c", "model_provider=openrouter", "-m", "anthropic/claude-sonnet-4.5",
            ],
            "ollama_chat/qwen3-coder": ["-c", "model_provider=ollama", "-m", "qwen3-coder"],
            "lm_studio/openai/gpt-oss-20b": [
                "-c", "model_provider=lmstudio", "-m", "openai/gpt-oss-20b",
            ],
            "deepseek-chat": ["-m", "deepseek-chat"],
        }
        for harbor_name, expected in cases.items():
            self.assertEqual(model_args(harbor_name), expected, harbor_name)

    def test_bad_arguments_are_refused_before_any_trial(self) -> None:
        with self.assertRaisesRegex(ValueError, "harness id"):
            make_agent(self.tmp, harness="claude code; rm -rf /")
        with self.assertRaisesRegex(ValueError, "unknown sandbox"):
            make_agent(self.tmp, sandbox="none")
        with self.assertRaisesRegex(ValueError, "not \"provider/model\""):
            make_agent(self.tmp, model_name="anthropic/")

    @unittest.skipUnless(shutil.which("bash"), "needs bash")
    def test_run_command_delivers_the_instruction_byte_exact(self) -> None:
        bin_dir = self.tmp / "bin"
        bin_dir.mkdir()
        fake = bin_dir / "interpreter"
        fake.write_text(
            "#!/bin/sh\n"
            f'printf "%s\\n" "$@" > "{self.tmp}/argv"\n'
            f'cat > "{self.tmp}/stdin"\n'
            'echo \'{"type":"turn.completed"}\'\n'
        )
        fake.chmod(0o755)
        agent = make_agent(
            self.tmp, model_name=MODEL, harness="claude-code", environment_logs_dir=self.tmp,
        )
        instruction = "Line one with 'quotes', \"double\", $HOME and `ticks`\n\nLast line %s\n"
        env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
        done = subprocess.run(
            ["bash", "-c", f"set -o pipefail; {agent.run_command(instruction)}"], env=env,
            capture_output=True, text=True, timeout=30,
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual((self.tmp / "stdin").read_text(), instruction)
        self.assertEqual((self.tmp / "argv").read_text().splitlines(), agent.exec_argv()[1:])
        self.assertEqual((self.tmp / "interpreter.jsonl").read_text(), '{"type":"turn.completed"}\n')


class ContextTest(TempDirCase):
    def test_context_comes_from_the_trajectory_final_metrics(self) -> None:
        shutil.copy(FIXTURE, self.tmp / "trajectory.json")
        context = harbor_stub.AgentContext()
        make_agent(self.tmp, model_name=MODEL).populate_context_post_run(context)
        self.assertEqual(context.n_input_tokens, 10800)
        self.assertEqual(context.n_output_tokens, 200)
        self.assertEqual(context.n_cache_tokens, 10000)
        self.assertEqual(context.metadata.get("session_id"), json.loads(FIXTURE.read_text())["session_id"])
        self.assertAlmostEqual(context.cost_usd, 0.00864)

    def test_without_final_metrics_the_steps_are_summed(self) -> None:
        data = json.loads(FIXTURE.read_text())
        del data["final_metrics"]
        (self.tmp / "trajectory.json").write_text(json.dumps(data))
        context = harbor_stub.AgentContext()
        make_agent(self.tmp).populate_context_post_run(context)
        self.assertEqual(
            (context.n_input_tokens, context.n_output_tokens, context.n_cache_tokens),
            (10800, 200, 10000),
        )
        self.assertAlmostEqual(context.cost_usd, 0.00864)

    def test_a_missing_trajectory_leaves_the_context_empty(self) -> None:
        context = harbor_stub.AgentContext()
        with self.assertLogs("harbor_stub", "WARNING") as logs:
            make_agent(self.tmp).populate_context_post_run(context)
        self.assertTrue(context.is_empty())
        self.assertIn("no usable trajectory", logs.output[0])


class ModuleTest(unittest.TestCase):
    def test_old_harbor_gets_our_message_on_import(self) -> None:
        code = (
            "import sys; sys.dont_write_bytecode = True\n"
            f"sys.path[:0] = [{str(HERE)!r}, {str(REPO / 'integrations' / 'harbor')!r}]\n"
            "import harbor_stub; harbor_stub.install(legacy=True)\n"
            "import interpreter_harbor\n"
        )
        out = subprocess.run(
            [sys.executable, "-B", "-c", code], capture_output=True, text=True, timeout=60,
        )
        self.assertNotEqual(out.returncode, 0)
        self.assertIn(
            "ImportError: error: interpreter_harbor needs Harbor's installed-agent interface",
            out.stderr,
        )
        self.assertIn("hint: upgrade Harbor past 0.1.45", out.stderr)
        self.assertNotIn("cannot import name", out.stderr)

    def test_name_and_import_path(self) -> None:
        self.assertEqual(Interpreter.name(), "interpreter")
        self.assertEqual(interpreter_harbor.Interpreter.__module__, "interpreter_harbor")
        self.assertTrue(Interpreter.SUPPORTS_ATIF)


if __name__ == "__main__":
    unittest.main(verbosity=2)
