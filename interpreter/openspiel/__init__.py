"""Happy DayZ for OpenSpiel: importing this package registers the game "happydayz".

    import pyspiel
    import happydayz.openspiel
    game = pyspiel.load_game("happydayz", {"scenario": "BOX-ID/1", "players": 4})  # a scenario id or file

See `happydayz.openspiel.game` for the parameters, the actions and the
observations, and docs/research.md. Needs the `rl` extra: pip install 'happydayz[rl]'.
"""

from __future__ import annotations

import pyspiel

from happydayz.openspiel.game import GAME_TYPE, HappyDayzGame, HappyDayzObserver, HappyDayzState

pyspiel.register_game(GAME_TYPE, HappyDayzGame)

__all__ = ["HappyDayzGame", "HappyDayzState", "HappyDayzObserver", "GAME_TYPE"]
