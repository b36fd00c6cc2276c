"""The table: a game people play, with a bot at every other seat.

Shared by the terminal game (`happydayz play`) and the web table
(`happydayz serve`): starting, resuming, saving and taking back a game
(session), one English line per event naming the power behind each effect
(narration), the count of each Community broken down (breakdown), and the
powers in play with their card text (powers).
"""
