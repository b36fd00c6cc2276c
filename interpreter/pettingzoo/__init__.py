"""Happy DayZ as a PettingZoo AEC environment: `happydayz.pettingzoo.env(scenario=..., players=...)`.

See `happydayz.pettingzoo.env` and docs/research.md. Needs the `rl` extra: pip install 'happydayz[rl]'.
"""

from __future__ import annotations

from happydayz.pettingzoo.env import HappyDayzEnv, env, raw_env

__all__ = ["HappyDayzEnv", "env", "raw_env"]
