"""What taking a trick is worth where the score counts tricks (a contract), for the `greedy` bot.

A trick's cards are all some hands score, but others count tricks against a bid (several classic boxes, a
modder's contract). Nothing here knows a game: the curve W(k) — what the end-of-round hooks give my seat if
my side takes k more tricks — is read by running those hooks on GreedyAgent's stand-in table (greedy._Probe) with
the tricks taken so far, the bids and the rest of the visible state as the observation tells them. With F my
side's further tricks, drawn as Binomial(tricks left, 1/sides):

- a trick won now is worth E[W(1 + F)] - E[W(F)] (`trick_gain`: positive while a bid is short, negative past it);
- a number chosen into a counter the hooks read (a bid) is the one whose W is best at the tricks my hand is
  expected to take (`best_number`).

Where no end-of-round hook calls `tricks`, the curve is flat and nothing changes (`reads_tricks`).
"""

from __future__ import annotations

from math import comb
from typing import Mapping

from happydayz.players.greedy import PowerModel, _Probe, _run_hook, ir_nodes, sites_in


class Hooks:
    """What the end-of-round hooks in play read of tricks, worked out once per model and hooks in play."""

    def __init__(self, model: PowerModel, hooks: list[tuple]):
        self.all = hooks
        reads = {k: _reads(model, k) for k, _ in hooks}
        # (the hooks that never call `tricks` add the same to every W(k): only the others are run)
        self.tricks = [(k, program) for k, program in hooks if reads[k][0]]
        args = [a for k, _ in self.tricks for a in reads[k][0]]
        self.own_only = all(a in _OWN for a in args)  # only `self`'s or its team's tricks are counted
        self.names = set().union(*(reads[k][1] for k, _ in self.tricks)) if self.tricks else set()


_HOOKS: dict[tuple, Hooks] = {}


def hooks_of(model: PowerModel, obs: Mapping) -> Hooks:
    """The Hooks of the observation's Factions and added powers in play (kept per process)."""
    key = (id(model), tuple(f["faction"] for f in obs["factions"]), tuple(f["variant"] for f in obs["factions"]),
           tuple(obs.get("added", ())))
    got = _HOOKS.get(key)
    if got is None:
        got = _HOOKS[key] = Hooks(model, model.end_hooks(obs))
    return got


def reads_tricks(model: PowerModel, obs: Mapping) -> bool:
    """Whether an end-of-round hook in play calls `tricks`."""
    return bool(hooks_of(model, obs).tricks)


_OWN = ({"node": "NameRef", "type": "Community", "name": "self"},
        {"node": "StateOf", "type": "Communities", "name": "team", "owner": {"node": "NameRef", "type": "Community",
                                                                               "name": "self"}})


def _reads(model: PowerModel, key) -> tuple[list, set]:
    """(the argument of every `tricks` call, every name read) of the end-of-round hook `key`."""
    for power in (*model.setup.faction_power.values(), *model.setup.added_power.values(),
                  *model.setup.card_power.values()):
        for variant in power.variants:
            if power.hook_key(variant, "end") == key:
                nodes = list(ir_nodes(model._variant_ir(power, variant)["hooks"]["end_of_round"]))
                args = [x["args"][0] if x["args"] else None for x in nodes
                        if x.get("node") == "Call" and x.get("function") == "tricks"]
                names = {x["name"] for x in nodes if isinstance(x.get("name"), str)}
                return args, names
    return [], set()


_CURVES: dict[tuple, list[float]] = {}


def curve(model: PowerModel, obs: Mapping, seat: int, left: int, state: dict | None = None) -> list[float]:
    """W(k) for k = 0 .. left: the end-of-round hooks' score for `seat` with k more tricks taken by it
    (its side's count grows with its own), `state` ((key, seat) -> value) laid over the visible state. Without
    `state`, only the hooks that call `tricks` are run (the rest add a constant); with it, every one (a hook may
    read the counter `state` sets).

    Kept per process by what those hooks can read of the observation: the tricks (only my side's where they
    count no other), the populations, the round and the counters they name — not my own count: the curve is
    kept as A(t) for every count t, W(k) = A(mine + k), worked out again in a hand only when a bid is made (or,
    where others' tricks count, when another takes a trick)."""
    info = hooks_of(model, obs)
    tricks = list(obs.get("tricks_won") or [0] * obs["players"])
    base = tricks[seat]
    tricks[seat] = None  # (W is kept as a function of my own count: A(t), t = 0 .. the most I can have)
    if info.own_only:
        tricks = [t for s, t in enumerate(tricks) if s in (model.team_of.get(seat) or (seat,))]
    names = info.names if not state else None
    key = (id(info), seat, tuple(tricks), tuple(obs["populations"]), obs["round"],
           tuple((s["power"], s["name"], s["seat"], s["value"]) for s in obs.get("state", ())
                 if names is None or s["name"] in names),
           tuple(sorted(state.items())) if state else ())
    got = _CURVES.get(key)
    if got is None or len(got) <= base + left:
        if len(_CURVES) > 50_000:  # (a long sweep: start again rather than grow)
            _CURVES.clear()
        got = _CURVES[key] = _curve(model, obs, seat, base + left, state, info.all if state else info.tricks)
    return got[base:base + left + 1]


def _curve(model: PowerModel, obs: Mapping, seat: int, most: int, state: dict | None, hooks: list) -> list[float]:
    """A(t), t = 0 .. most: the hooks' score for `seat` with t tricks of its own."""
    probe = _Probe(model.setup, obs, tuple(model.factions_in_play(obs)), {})
    if state:
        probe.state.update(state)
    out = []
    for t in range(most + 1):
        probe.reset()
        probe.tricks_won[seat] = t
        for key, program in hooks:
            _run_hook(probe, key, program, seat)
        out.append(float(model.sign * probe.scores[seat]))
    return out


def _binomial(n: int, q: float) -> list[float]:
    return [comb(n, k) * q ** k * (1 - q) ** (n - k) for k in range(n + 1)]


def gain(model: PowerModel, obs: Mapping, seat: int, left: int) -> float:
    """What `seat`'s side taking the trick on the table is worth to the score, `left` tricks left in its hand
    (this one included): trick_gain of its curve, 0 where no end-of-round hook counts tricks."""
    if not reads_tricks(model, obs):
        return 0.0
    return trick_gain(curve(model, obs, seat, left), len(model.teams) if model.teams else obs["players"])


def trick_gain(w: list[float], sides: int) -> float:
    """E[W(1 + F)] - E[W(F)], F ~ Binomial(len(w) - 2, 1/sides): the worth of taking the trick on the table."""
    left = len(w) - 1
    if left < 1:
        return 0.0
    p = _binomial(left - 1, 1.0 / max(sides, 1))
    return sum(pk * (w[k + 1] - w[k]) for k, pk in enumerate(p))


def best_number(model: PowerModel, obs: Mapping, seat: int, numbers: list[int], counter: tuple, left: int,
                tricks: int) -> int:
    """The index of the number whose value in `counter` ((power:name)) gives the best W(tricks), the one closest to
    `tricks` among equals."""
    best, best_key = 0, None
    for i, n in enumerate(numbers):
        w = curve(model, obs, seat, left, {(counter, seat): n})
        key = (w[min(max(tricks, 0), left)], -abs(n - tricks))
        if best_key is None or key > best_key:
            best, best_key = i, key
    return best


_COUNTERS: dict[tuple, str | None] = {}


def number_counter(model: PowerModel, prompt: str) -> str | None:
    """The counter ("power:name") that a `choose ... Number` with this prompt sets to the number chosen, in any
    hook of any power (kept per model and prompt): None if there is none."""
    key = (id(model), prompt)
    if key not in _COUNTERS:
        _COUNTERS[key] = _find_counter(model, prompt)
    return _COUNTERS[key]


def _find_counter(model: PowerModel, prompt: str) -> str | None:
    for power in (*model.setup.faction_power.values(), *model.setup.added_power.values()):
        for variant in power.variants:
            hooks = [h for h in model._variant_ir(power, variant)["hooks"].values() if h]
            for site in sites_in(hooks, prompt):
                if site.ins.get("element") != "Number":
                    continue
                chosen = {"node": "NameRef", "type": "Number", "name": site.ins["name"]}
                for ins in site.body:
                    st = ins.get("statement") or {}
                    if ins["op"] == "effect" and st.get("node") == "SetVar" and st.get("value") == chosen:
                        return f"{power.name}:{st['name']}"
    return None


__all__ = ["hooks_of", "reads_tricks", "curve", "gain", "trick_gain", "best_number", "number_counter"]
