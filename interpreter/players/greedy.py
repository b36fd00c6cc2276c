"""GreedyAgent: a rule-of-thumb player that reads only what its Community sees.

The agent answers `decide(observation, decision) -> index`. Besides the
observation (Game.observe of its seat) it reads only the static, public facts
of the game — the card list and the compiled powers — through `bind(setup,
seat)`, which a game loop calls once before the first decision (an agent
built with `GreedyAgent(seed, setup=setup)` needs no bind). It never sees the
Game.

No Faction is known here by name. What a card is worth and what winning a
trick of a Faction does are read from the compiled powers:

* a card's **worth** to a Community is its `survivors` plus what the
  end-of-round hooks in play (Faction powers, added powers, a card's own
  power) give for it. The agent runs those hooks' compiled programs on a
  small stand-in of the table (its own and the others' Expedition zones
  holding the cards known there, the rest guessed from the unseen cards)
  with and without the card;
* what **winning** does is read from the Faction's `on win` program (its IR,
  `ir.power_ir`): whether the trick or the Encounter card is moved away
  (to a chosen Community, a neighbour, the Reserve), whether some of the
  trick's cards are dealt round the table (and in which order), whether the
  winner chooses cards of its own Expedition zone or of the trick to send
  away, whether it draws, names the next leader, and so on.

With these it scores every legal play: the chance that the card wins the
trick (from the unseen cards of the Faction led that could beat it, and
whether the others would want the trick), the trick's expected content (the
cards on the table, the Encounter card and what the players still to play
are likely to add), what the winner and the others get, and what the card is
worth kept in hand (a card without value that is always playable is a
precious escape; a card that loses Survivors is a burden to shed). Choices
inside powers send negative cards away (to the Community leading in
population), keep positive ones, discard the worst cards of one's own piles.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Mapping

from happydayz.base.draws import shuffle
from happydayz.language import vm
from happydayz.language.host import PowerHost
from happydayz.kernel.determinize import expeditions_seen, in_play_cards, known_cards, trick_voids
from happydayz.kernel.game import Decision
from happydayz.language.ir import power_ir
from happydayz.kernel.setup import GameSetup
from happydayz.kernel.tables import tables_of
from happydayz.players.agents import Observation, as_dict, card_ids


# ======================================================================= IR
class _Unknown(Exception):
    """An IR expression the agent's little evaluator cannot judge."""


def ir_nodes(tree):
    """Every node (dict) of an IR subtree, in no set order."""
    stack = [tree]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            yield x
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)


def _names(node) -> set[str]:
    """Every NameRef name inside an IR subtree."""
    return {x.get("name") for x in ir_nodes(node) if x.get("node") == "NameRef"}


def _unwrap(node) -> tuple[dict, list]:
    """A group expression without its `where` filters: (base, conditions)."""
    conds = []
    while isinstance(node, dict) and node.get("node") == "Where":
        conds.append(node["condition"])
        node = node["source"]
    return node, conds


def _operand(node, spec, led):
    kind = node.get("node")
    if kind == "BareAttr" or (kind == "AttrOf" and node["target"].get("node") == "NameRef"
                              and node["target"].get("name") == "it"):
        attr = node["attr"]
        if attr == "faction":
            return spec.faction
        return getattr(spec, attr, None) or 0
    if kind == "FactionLit":
        return node["name"]
    if kind == "IntLit":
        return node["value"]
    if kind == "Neg":
        return -_operand(node["operand"], spec, led)
    if kind == "NameRef" and node.get("name") == "led":
        if led is None:
            raise _Unknown()
        return led
    raise _Unknown()


def _cond(node, spec, led) -> bool:
    kind = node.get("node")
    if kind == "Compare":
        op = node["op"]
        if op in ("in", "not in"):
            raise _Unknown()
        a, b = _operand(node["left"], spec, led), _operand(node["right"], spec, led)
        return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
    if kind == "Logic":
        left, right = _cond(node["left"], spec, led), _cond(node["right"], spec, led)
        return (left and right) if node["op"] == "and" else (left or right)
    if kind == "Not":
        return not _cond(node["operand"], spec, led)
    raise _Unknown()


def matches(conds: list, spec, led) -> bool:
    """Whether a card passes `where` conditions (an unjudgeable condition passes)."""
    for c in conds:
        try:
            if not _cond(c, spec, led):
                return False
        except (_Unknown, TypeError, KeyError):
            continue
    return True


# Where moved cards end up, seen from the Community running the power.
ME, OTHER, CHOICE, REMOVED = "me", "other", "choice", "removed"


@dataclass
class Shed:
    """The power lets its runner pick cards of a pile and send them somewhere."""

    source: str  # expedition, trick, held, other
    conds: list
    count: int
    mandatory: bool
    dest: str


@dataclass
class OnWin:
    """What winning a trick of a Faction does, read from its `on win` program."""

    trick: str = ME  # where the (unfiltered) trick goes
    encounter: str = ME
    partial: list = field(default_factory=list)  # (what: trick/encounter, conds, dest)
    deals: list = field(default_factory=list)  # (conds, order keys [(attr, direction)])
    sheds: list = field(default_factory=list)
    draws: int = 0
    control: bool = False
    score: int = 0  # immediate gain/lose for the winner


def _dest_class(dest: dict, bindings: dict) -> str:
    kind = dest.get("kind")
    if kind in ("reserve_top", "reserve_bottom", "discard"):
        return REMOVED
    owner = dest.get("owner")
    return _who_class(owner, bindings)


def _who_class(owner, bindings: dict) -> str:
    if owner is None:
        return ME
    node = owner.get("node")
    if node == "Neighbour":
        return OTHER
    if node == "NameRef":
        name = owner.get("name")
        if name == "self":
            return ME
        binding = bindings.get(name)
        if binding is not None and binding["element"] == "Community":
            base, _ = _unwrap(binding["source"])
            names = _names(binding["source"])
            if base.get("node") == "NameRef" and base.get("name") == "others" or "others" in names and "everyone" not in names:
                return OTHER
            return CHOICE
        return OTHER
    return CHOICE


def _source_class(source: dict) -> str:
    base, _ = _unwrap(source)
    if base.get("node") == "Otherwise":
        base, _ = _unwrap(base["first"])
    node = base.get("node")
    if node == "ZoneRef" and base.get("owner") is None:
        return {"expedition": "expedition", "held": "held", "hand": "held", "transfer": "held"}.get(base["zone"], "other")
    if node == "NameRef" and base.get("name") == "trick":
        return "trick"
    return "other"


def analyse_on_win(program: list | None) -> OnWin:
    """Read an `on win` hook's IR instructions into an OnWin summary."""
    out = OnWin()
    if not program:
        return out
    bindings: dict[str, dict] = {}
    for ins in program:
        if ins["op"] == "choose":
            bindings[ins["name"]] = ins
    for ins in program:
        op = ins["op"]
        if op != "effect":
            continue
        st = ins["statement"]
        kind = st.get("node")
        if kind == "Move":
            dest = _dest_class(st["dest"], bindings)
            cards = st["cards"]
            items = [cards["left"], cards["right"]] if cards.get("node") == "Arith" else [cards]
            for item in items:
                base, conds = _unwrap(item)
                if base.get("node") == "NameRef" and base.get("name") in ("trick", "encounter"):
                    what = base["name"]
                    if conds:
                        out.partial.append((what, conds, dest))
                    elif what == "trick":
                        out.trick = dest
                    else:
                        out.encounter = dest
                elif base.get("node") == "NameRef" and base.get("name") in bindings:
                    b = bindings[base["name"]]
                    if b["element"] != "Card":
                        continue
                    src = _source_class(b["source"])
                    _, sconds = _unwrap(b["source"])
                    count = b.get("count") or 1
                    mandatory = b.get("mode") in ("one", "exactly") and not sconds
                    if b.get("chooser") is not None and "self" not in _names(b["chooser"]):
                        src = "other"  # somebody else chooses
                    out.sheds.append(Shed(src, sconds, count, mandatory, dest))
        elif kind == "Deal":
            base, conds = _unwrap(st["cards"])
            if base.get("node") == "NameRef" and base.get("name") == "trick":
                out.deals.append((conds, [(k["attr"], k["direction"]) for k in st.get("order", [])]))
        elif kind == "Draw":
            count = st.get("count") or {}
            out.draws += count.get("value", 1) if count.get("node") == "IntLit" else 1
        elif kind in ("NextLeader", "NextLead", "NextSide", "NobodyTakes"):
            out.control = True
        elif kind == "Score":
            amount = st.get("amount") or {}
            if amount.get("node") == "IntLit" and st.get("whom") is None:
                out.score += st.get("sign", 1) * amount["value"]
    return out


@dataclass
class ChoiceSite:
    """A `choose` or `ask` instruction of a hook, and what its body does with the choice."""

    ins: dict
    body: list  # the instructions inside the choice's block
    bindings: dict
    hook: list


def sites_in(hooks: list[list], prompt: str) -> list[ChoiceSite]:
    """The choose/ask instructions of `hooks` (IR programs) whose prompt is `prompt`, each with its body."""
    sites = []
    for hook in hooks:
        bindings = {i["name"]: i for i in hook if i["op"] == "choose"}
        for ins in hook:
            if ins["op"] in ("choose", "ask") and ins.get("prompt") == prompt:
                end = ins.get("empty") if ins["op"] == "choose" else ins.get("no")
                body = hook[ins["pc"] + 1:end] if isinstance(end, int) and end > ins["pc"] else hook[ins["pc"] + 1:]
                sites.append(ChoiceSite(ins, body, bindings, hook))
    return sites


class PowerModel:
    """The static facts of a setup that every player knows, read once."""

    def __init__(self, setup: GameSetup):
        self.setup = setup
        self.cards = setup.cards
        self._ir: dict[int, dict] = {}
        self._on_win: dict[tuple, OnWin] = {}
        self._sites: dict[tuple, list] = {}
        self._statics: dict[tuple, InPlay] = {}
        # Every worth the agent reckons is to its taker's good: where the fewest win (the hand's score.winner),
        # a card's Survivors and a power's gain count against, so they are turned round (sign -1).
        self.sign = -1 if setup.winner == "fewest" else 1
        survivors = tuple(c.survivors for c in setup.cards)
        self.survivors = survivors if self.sign == 1 else tuple(-v for v in survivors)  # card id -> its worth
        # My team (the hand's teams): the seats whose tricks and score are mine too; alone without teams. A rival
        # is another team (another Community without teams): what the others gain is shared among the rivals.
        self.teams = setup.teams
        self.team_of = {seat: frozenset(team) for team in setup.teams for seat in team} if setup.teams else {}
        self._spread: dict[str, tuple | None] = {}

    def ir(self, power) -> dict:
        key = id(power)
        if key not in self._ir:
            self._ir[key] = power_ir(power)
        return self._ir[key]

    @staticmethod
    def variant_of(obs: Mapping, faction: str) -> str:
        for f in obs["factions"]:
            if f["faction"] == faction:
                return f["variant"]
        return "basic"

    def rules_of_faction(self, obs: Mapping, faction: str):
        return self.setup.rules(faction, self.variant_of(obs, faction))

    def rules(self, obs: Mapping, card: int):
        return self.rules_of_faction(obs, self.cards[card].faction)

    def factions_in_play(self, obs: Mapping) -> list[str]:
        return list(obs.get("always", self.setup.always)) + [f["faction"] for f in obs["factions"]]

    def _variant_ir(self, power, variant: str) -> dict:
        ir = self.ir(power)
        kind = "fixed" if power.fixed else variant
        return ir["variants"][kind]

    def on_win(self, obs: Mapping, faction: str | None) -> OnWin:
        if faction is None or faction not in self.setup.faction_power:
            return OnWin()
        variant = self.variant_of(obs, faction)
        key = (faction, variant)
        if key not in self._on_win:
            vir = self._variant_ir(self.setup.faction_power[faction], variant)
            profile = analyse_on_win(vir["hooks"]["on_win"])
            if self.sign != 1:  # (a gain on winning counts against where the fewest win)
                profile.score = -profile.score
            self._on_win[key] = profile
        return self._on_win[key]

    def end_hooks(self, obs: Mapping) -> list[tuple]:
        """(key, program) of every end-of-round hook that runs for every Community."""
        keys = [self.setup.faction_power[f].hook_key(self.variant_of(obs, f), "end") for f in self.factions_in_play(obs)]
        keys += [self.setup.added_power[name].hook_key("basic", "end")
                 for name in obs.get("added", ()) if name in self.setup.added_power]
        return [(key, self.setup.program(key)) for key in keys if key is not None]

    def card_hook(self, card: int):
        power = self.setup.card_power.get(card)
        key = power.hook_key("basic", "end") if power is not None else None
        return None if key is None else (key, self.setup.program(key))

    def in_play(self, obs: Mapping) -> "InPlay":
        """What follows from the Factions, variants and added powers an observation lists (cached)."""
        key = (tuple(obs.get("always", self.setup.always)), tuple((f["faction"], f["variant"]) for f in obs["factions"]),
               tuple(obs.get("added", ())))
        got = self._statics.get(key)
        if got is None:
            got = self._statics[key] = InPlay(self, obs)
        return got

    def spread(self, faction: str) -> tuple[float, float] | None:
        """(middle, half range) of the values of a Faction's cards (those with a value other than 0), or None."""
        if faction not in self._spread:
            cards = self.cards
            values = [cards[c].value for c in self.setup.faction_cards.get(faction, ()) if cards[c].value]
            if values:
                lo, hi = min(values), max(values)
                self._spread[faction] = ((lo + hi) / 2, max((hi - lo) / 2, 1))
            else:
                self._spread[faction] = None
        return self._spread[faction]

    def choice_sites(self, obs: Mapping, decision: Decision) -> list[ChoiceSite]:
        """The choose/ask instructions whose prompt is the decision's, the led Faction's hook first."""
        prompt = decision.prompt.split(" — ")[0]
        led = (obs.get("trick") or {}).get("led")
        key = (prompt, led, tuple((f["faction"], f["variant"]) for f in obs["factions"]))
        cached = self._sites.get(key)
        if cached is not None:
            return cached
        hooks: list[list] = []
        order = [led] if led else []
        order += [f for f in self.factions_in_play(obs) if f != led]
        for faction in order:
            power = self.setup.faction_power.get(faction)
            if power is None:
                continue
            vir = self._variant_ir(power, self.variant_of(obs, faction))
            hooks += [h for h in (vir["hooks"]["on_win"], vir["hooks"]["end_of_round"]) if h]
        for power in list(self.setup.added_power.values()) + list(self.setup.card_power.values()):
            vir = self._variant_ir(power, "basic")
            hooks += [h for h in (vir["hooks"]["on_win"], vir["hooks"]["end_of_round"]) if h]
        sites = self._sites[key] = sites_in(hooks, prompt)
        return sites


class InPlay:
    """The facts of one set of Factions, variants and added powers in play, for every observation that lists them."""

    def __init__(self, model: PowerModel, obs: Mapping):
        self.variants: dict[str, str] = {}  # Faction -> its variant (the first listed, as PowerModel.variant_of)
        for f in obs["factions"]:
            self.variants.setdefault(f["faction"], f["variant"])
        self.cards = in_play_cards(model.setup, obs)  # the round's deck, in id order
        self.hooks = model.end_hooks(obs)
        self.card_hooks = {c: h for c in self.cards if (h := model.card_hook(c)) is not None}
        self.factions = tuple(model.factions_in_play(obs))
        self.face_up = {f for f in self.factions if model.rules_of_faction(obs, f).face_up}


_MODELS: dict[int, PowerModel] = {}


def power_model(setup: GameSetup) -> PowerModel:
    """One PowerModel per setup (cached; a setup never changes)."""
    model = _MODELS.get(id(setup))
    if model is None or model.setup is not setup:
        model = PowerModel(setup)
        _MODELS[id(setup)] = model
    return model


# ================================================================ the probe
class _Zones(dict):
    """The zones of a probe: those it was not given (hands, Transfer zones) read as empty."""

    def __missing__(self, key: str) -> list:
        return []


class _Probe(PowerHost):
    """The table the agent imagines, as a PowerHost: compiled end-of-round hooks run on it.

    It holds the zones the agent estimates (its own and the others' Expedition
    zones) and keeps the hooks' gain/lose scores; moves are ignored. One probe
    serves many runs: `reset()` before each gives it what a new one has (no
    scores, a random source seeded 0, made only if a hook draws).
    """

    def __init__(self, setup: GameSetup, obs: Mapping, factions: tuple, zones: dict):
        self.setup = setup
        self.cards = setup.cards
        self.tables = tables_of(setup)  # the per-card tables compiled code reads
        self.n = obs["players"]
        self.zones = _Zones(zones)
        self.population = list(obs["populations"])
        self.round_no = obs["round"]
        self._rng: random.Random | None = None
        self._factions = factions
        self.scores = [0] * self.n
        self.trick = None  # the hooks it runs are end-of-round hooks: no trick is on the table
        self.tricks_won = list(obs.get("tricks_won") or [0] * self.n)
        self.state = {(f"{s['power']}:{s['name']}", s["seat"]): s["value"] for s in obs.get("state", ())}

    @property
    def rng(self) -> random.Random:
        if self._rng is None:
            self._rng = random.Random(0)
        return self._rng

    def reset(self) -> "_Probe":
        self.scores = [0] * self.n
        self._rng = None
        return self

    @property
    def reserve(self):
        return self.zones["reserve"]

    def held(self, seat: int):
        return (*self.zones[f"hand:{seat}"], *self.zones[f"transfer:{seat}"])

    def factions_in_play(self):
        return self._factions

    def apply_effects(self, effects, source=None) -> None:
        for e in effects:
            if e[0] == "score":
                self.scores[e[1]] += e[2]


def _run_hook(probe: _Probe, key, program, seat: int, this: int | None = None) -> None:
    frame = vm.frame(key, seat, this)
    for _ in range(64):
        request = vm.run(probe, frame, program)
        if request is None:
            return
        options = request[3]
        vm.answer(frame, program, options[0])


def _finish_hook(probe: _Probe, frame, program, request) -> None:
    """_run_hook after its first run stopped at `request`: the same answers and runs (64 of each at most)."""
    for _ in range(63):
        vm.answer(frame, program, request[3][0])
        request = vm.run(probe, frame, program)
        if request is None:
            return
    vm.answer(frame, program, request[3][0])


# ============================================================== the estimate
@dataclass(slots=True)
class Item:
    """A card in a hypothetical trick: its attributes, its worth to me (m) and to anyone (s)."""

    faction: str | None
    value: int | None
    survivors: float
    m: float
    card: int | None = None


class Estimate:
    """What one decision's scoring needs, computed once from the observation.

    What does not depend on the decision comes from the model (`PowerModel.in_play`);
    what does (card worths, the chances that the others follow or beat a card) is
    worked out on first use and kept for the rest of the decision.
    """

    def __init__(self, model: PowerModel, obs: Mapping, rng: random.Random, samples: int = 2):
        self.model = model
        self.setup = model.setup
        self.cards = model.cards
        self.obs = obs
        self.me = me = obs["seat"]
        self.n = n = obs["players"]
        self.rng = rng
        self.sign = model.sign
        self.team = model.team_of.get(me) or frozenset((me,))  # my team's seats (mine alone without teams)
        self.rivals = len(model.teams) - 1 if model.teams else n - 1  # the other teams (Communities)
        in_play = self.in_play = model.in_play(obs)
        # the card lists by their ids (a seat view makes no label dicts for them)
        self.hand = hand = card_ids(obs, "hand")
        self.transfer = transfer = card_ids(obs, "transfer")
        self.encounter = encounter = card_ids(obs, "encounter")
        face_up_ids = card_ids(obs, "expedition_face_up")
        exp_seen = expeditions_seen(obs)  # the cards known to lie in each Expedition zone
        seen = known_cards(obs, exp_seen)
        self.unseen = [c for c in in_play.cards if c not in seen]  # (determinize.hidden_cards)
        self.hooks = in_play.hooks
        self.card_hooks = in_play.card_hooks
        self.factions = in_play.factions
        self._m: dict[int, float] = {}
        self._fmean: dict[str, float] = {}
        self._typical: dict[tuple, Item] = {}
        self._memo: dict[tuple, object] = {}  # the decision's other worked-out facts (see _once)
        self._items: dict[int, Item] = {}
        self._rules: dict[int, object] = {}
        self.samples: list[dict] = []
        self.my_pile: list[int] = []  # a guess at my face-down Expedition cards (first sample)
        cards = self.cards
        face_up = in_play.face_up
        pool_all = [c for c in self.unseen if cards[c].faction not in face_up]
        sizes = obs["expedition_sizes"]
        hooked = bool(self.hooks or self.card_hooks)
        for k in range(samples if hooked else 1):
            pool = list(pool_all)
            shuffle(rng, pool)  # (also without hooks, where only my pile is read: the same draws)
            zones: dict[str, list[int]] = {}
            for seat in range(n):
                seen_here = exp_seen[seat]
                down = sizes[seat] - len(seen_here)
                if hooked:
                    zones[f"expedition:{seat}"] = seen_here + pool[:down]
                if k == 0 and seat == me:
                    up = set(face_up_ids[seat])
                    self.my_pile = [c for c in seen_here if c not in up] + pool[:down]
                pool = pool[down:]
            if hooked:  # (without hooks no probe reads the zones)
                zones[f"hand:{me}"] = list(hand)
                for seat in range(n):
                    zones[f"transfer:{seat}"] = list(transfer[seat])
                self.samples.append(zones)
        self._mine = f"expedition:{me}"
        self._survivors_of = model.survivors.__getitem__
        self._probes: list[_Probe | None] = [None] * len(self.samples)  # one per sample (see _score)
        # A sample equal to an earlier one (no face-down card was guessed) is its twin: a hook's run on a
        # probe depends only on the zones and the observation (its random source is seeded 0 for each run,
        # its moves are ignored, its scores reset), so the twin's scores are the earlier one's.
        self._twin = [self.samples.index(zones) for zones in self.samples]
        self._base = self._per_sample(lambda i: self._score(i, ())) if hooked else []

    def _once(self, key: tuple, make):
        """`make()`, worked out once per decision for `key`. Only for what draws nothing from `rng`."""
        memo = self._memo
        if key in memo:
            return memo[key]
        value = memo[key] = make()
        return value

    # --- worth
    def _per_sample(self, score) -> list:
        """[score(i) for each sample i], a twin sample taking the earlier sample's value (no hook run again)."""
        out = []
        for i, twin in enumerate(self._twin):
            out.append(out[twin] if twin < i else score(i))
        return out

    def _mean_gain(self, gain) -> float:
        """The mean over the samples of gain(i, base score of sample i), summed in sample order
        (a twin sample taking the earlier sample's gain, as in _per_sample)."""
        base = self._base
        total = 0.0
        for value in self._per_sample(lambda i: gain(i, base[i])):
            total += value  # (a loop, not sum(): the same additions whatever the Python version)
        return total / len(base)

    def _score(self, i: int, extra: Iterable[int], removed: Iterable[int] = ()) -> float:
        """My Survivors at the count, with sample i's zones, `extra` cards added to mine and `removed` taken out."""
        zones = self.samples[i]
        key = self._mine
        if removed:
            gone = set(removed)
            mine = [c for c in zones[key] if c not in gone] + list(extra)
        else:
            mine = [*zones[key], *extra]
        probe = self._probes[i]
        if probe is None:
            probe = self._probes[i] = _Probe(self.setup, self.obs, self.factions, dict(zones))
        probe.scores = [0] * probe.n  # (probe.reset(), inlined: it runs some 30 times a decision)
        probe._rng = None
        probe.zones[key] = mine
        me = self.me
        frame, run = vm.frame, vm.run
        for k, program in self.hooks:  # (_run_hook, its first run inlined)
            f = frame(k, me, None)
            request = run(probe, f, program)
            if request is not None:
                _finish_hook(probe, f, program, request)
        card_hooks = self.card_hooks
        if card_hooks:
            for c in mine:
                hook = card_hooks.get(c)
                if hook is not None:
                    _run_hook(probe, hook[0], hook[1], me, c)
        return sum(map(self._survivors_of, mine)) + self.sign * probe.scores[me]

    def m(self, card: int) -> float:
        """The worth of one card to me if it ends in my Expedition zone."""
        got = self._m.get(card)
        if got is not None:
            return got
        if not self.hooks and not self.card_hooks:
            value = float(self._survivors_of(card))
        else:
            key = self._mine
            samples = self.samples
            score = self._score
            value = self._mean_gain(lambda i, base: base - score(i, (), (card,)) if card in samples[i][key]
                                    else score(i, (card,)) - base)
        self._m[card] = value
        return value

    def rules(self, card: int):
        """The rules of a card, with the variants in play."""
        got = self._rules.get(card)
        if got is None:
            faction = self.cards[card].faction
            got = self._rules[card] = self.setup.rules(faction, self.in_play.variants.get(faction, "basic"))
        return got

    @cached_property
    def unseen_by_faction(self) -> dict[str, list[int]]:
        """Faction -> its unseen cards, in the order of `unseen` (never to be changed: shared)."""
        out: dict[str, list[int]] = {}
        cards = self.cards
        for c in self.unseen:
            faction = cards[c].faction
            group = out.get(faction)
            if group is None:
                out[faction] = [c]
            else:
                group.append(c)
        return out

    @cached_property
    def hand_sizes(self) -> list[int]:
        """The cards each Community holds that I do not see: its hand, and the cards passed into its Transfer zone
        between two others, where those zones are secret (the view's transfer_sizes; else none)."""
        sizes = self.obs["hand_sizes"]
        if not self.setup.secret_transfer:
            return sizes
        return [size + total - len(seen) for size, total, seen in zip(sizes, self.obs["transfer_sizes"], self.transfer)]

    def faction_mean(self, faction: str | None) -> float:
        """The mean worth to me of the unseen cards of a Faction (of all unseen cards for None)."""
        key = faction or "*"
        if key in self._fmean:
            return self._fmean[key]
        pool = self.unseen if faction is None else self.unseen_by_faction.get(faction, [])
        if not pool:
            value = 0.0
        else:
            picks = pool if len(pool) <= 5 else self.rng.sample(pool, 5)
            if self.hooks or self.card_hooks:
                value = sum(self.m(c) for c in picks) / len(picks)
            else:
                value = sum(map(self._survivors_of, pool)) / len(pool)
        self._fmean[key] = value
        return value

    def set_worth(self, gained: list[int], lost: list[int] = ()) -> float:
        """The worth to me of cards entering (and leaving) my Expedition zone together."""
        if not gained and not lost:
            return 0.0
        if not self.hooks and not self.card_hooks:
            survivors_of = self._survivors_of
            return float(sum(map(survivors_of, gained)) - sum(map(survivors_of, lost)))
        if len(gained) == 1 and not lost:
            return self.m(gained[0])
        return self._mean_gain(lambda i, base: self._score(i, gained, lost) - base)

    def addition(self, led: str | None, follow_p: float, k: int) -> Item:
        """What a later player probably adds to the trick: a card of the Faction led (chance
        follow_p) or else a card it sheds (a bad one). Its worth is the expectation; its
        attributes (for filters and deal orders) are a typical card of the likelier case."""
        key = (led, round(follow_p, 2))
        got = self._typical.get(key)
        if got is None:
            mean_all = self.faction_mean(None)
            dump = mean_all * 1.5 if mean_all < 0 else mean_all
            worth = follow_p * self.faction_mean(led) + (1 - follow_p) * dump if led else mean_all
            spec = self._typical_card(led if led is not None and follow_p >= 0.5 else None)
            if spec is not None:
                got = self._typical[key] = Item(spec.faction, spec.value, worth, worth, None)
            else:
                got = self._typical[key] = Item(None, None, worth, worth, None)
        return got

    def _typical_card(self, led: str | None):
        """The typical card a later player adds: the middle unseen card of the Faction led (by Survivors,
        then value), or for None the middle one of the worst third of the unseen cards; None if there is none.
        Once per decision for each (it draws nothing)."""
        memo = self._memo
        key = ("typical card", led)
        if key in memo:
            return memo[key]
        cards = self.cards
        if led is not None:
            pool = list(self.unseen_by_faction.get(led, ()))
        else:
            pool = sorted(self.unseen, key=self.model.survivors.__getitem__)[: max(len(self.unseen) // 3, 1)]
        spec = None
        if pool:
            worth = self._survivors_of
            pool.sort(key=lambda c: (worth(c), cards[c].value or 0))
            spec = cards[pool[len(pool) // 2]]
        memo[key] = spec
        return spec

    def passes(self, conds: list, x: Item, led) -> bool:
        """matches(conds, x, led), once per decision for an Item (Items are never changed)."""
        key = ("passes", id(conds), id(x), led)
        memo = self._memo
        got = memo.get(key)
        if got is None:
            got = memo[key] = matches(conds, x, led)
        return got

    def item(self, card: int) -> Item:
        """The card as an Item (one object per card and decision: Items are never changed)."""
        got = self._items.get(card)
        if got is None:
            spec = self.cards[card]
            got = self._items[card] = Item(spec.faction, spec.value, float(self._survivors_of(card)), self.m(card),
                                           card)
        return got


# =============================================================== the agent
def _best_play(cards, plays: list[tuple[int, int, bool]], led: str | None, high: bool, counted: dict | None = None):
    """(seat, card, trump) of the best play by the public rules, or None: the first best trump if a
    card cut, else the first best card of the Faction led (cards without a value never win). Where the
    game has game-wide `rule counts as`, `counted` (card -> (Faction, value), GreedyAgent._counted) gives
    the Faction and value each card counts as, as the kernel finds the winner."""
    trump = follow = None
    for p in plays:
        if counted is None:
            faction, v = cards[p[1]].faction, cards[p[1]].value
        else:
            faction, v = counted[p[1]]
        if v is None:
            continue
        if p[2]:
            if trump is None or ((v > trump[0]) if high else (v < trump[0])):
                trump = (v, p)
        elif trump is None and led is not None and faction == led:
            if follow is None or ((v > follow[0]) if high else (v < follow[0])):
                follow = (v, p)
    if trump is not None:
        return trump[1]
    return follow[1] if follow is not None else None


#: What beating my partner's winning card costs when no rival plays after me (a good card spent for nothing).
OVERTAKE = 0.5


def overtakes(cards, plays0, led0, side: str, team, rest, counted: dict | None = None) -> bool:
    """Whether the trick so far is my partner's and no rival is still to play: my card beating it gains nothing."""
    if not plays0 or led0 is None or any(seat not in team for seat in rest):
        return False
    before = _best_play(cards, plays0, led0, side == "+", counted)
    return before is not None and before[0] in team


def _plain_utility(est: "Estimate", profile: OnWin, items: list[Item], enc: Item | None, winner: int) -> float:
    """GreedyAgent._utility for a power that deals nothing, moves no part of the trick and sheds nothing:
    the same sums in the same order, without the general case's bookkeeping."""
    n = est.n
    i_win = winner in est.team  # (my partner's trick is my team's: its score is mine too)
    gained: list[Item] = []
    share = 1.0 / max(n - 1, 1)
    mine, others = _send(items, profile.trick, i_win, share, gained, 0.0, 0.0)
    if enc is not None:
        mine, others = _send((enc,), profile.encounter, i_win, share, gained, mine, others)
    if i_win:
        mine += 0.3 * profile.draws + (0.5 if profile.control else 0.0) + profile.score
    mine += est.set_worth([x.card for x in gained if x.card is not None], [])
    mine += sum(x.m for x in gained if x.card is None)
    return mine - others / max(est.rivals, 1)


def _without(items: list[Item], gone: list[Item]) -> list[Item]:
    """`items` but those of `gone` (the same objects)."""
    gone_ids = {id(x) for x in gone}
    return [x for x in items if id(x) not in gone_ids]


def _send(group, dest: str, i_win: bool, share: float, gained: list, mine: float, others: float) -> tuple[float, float]:
    """Where cards a trick's winner takes end up, as worth to me (`mine`, or into `gained`) and to the others."""
    if not group or dest == REMOVED:
        return mine, others
    # (each sum is made only where it is read)
    if i_win:
        if dest == ME or (dest == CHOICE and sum([x.m for x in group]) >= 0):
            gained.extend(group)
        else:
            others += sum([x.survivors for x in group])
        return mine, others
    worth_s = sum([x.survivors for x in group])
    if dest == ME or (dest == CHOICE and worth_s >= 0):
        others += worth_s
    else:  # the winner sends it away: to me with some chance
        mine += share * sum([x.m for x in group])
        others += (1 - share) * worth_s
    return mine, others


def shed_from(pool: list[Item], shed, gained: list[Item], lost: list[int], others: float) -> tuple[list[Item], float]:
    """A shed on a win, from `pool` (sorted worst first): the cards chosen leave `gained` (or my zone: into
    `lost`); (gained, others) after it."""
    chosen = pool[:shed.count] if shed.mandatory else [x for x in pool[:shed.count] if x.m < 0]
    for x in chosen:
        if any(x is y for y in gained):
            gained = [y for y in gained if y is not x]
        else:
            lost.append(x.card)
        if shed.dest in (OTHER, CHOICE):
            others += x.survivors
    return gained, others


def trick_utility(est, profile: OnWin, items: list[Item], enc: Item | None, winner: int) -> float:
    """My gain minus the others' mean gain when `winner` takes the trick and its power runs (GreedyAgent._utility).

    `est` is read for n, me, team, rivals, passes, item, my_pile, faction_mean and set_worth: an Estimate, or
    lean_play's Decision_ (the same facts from per-process tables)."""
    if not profile.deals and not profile.partial and not profile.sheds:
        return _plain_utility(est, profile, items, enc, winner)
    n = est.n
    me = est.me
    gained: list[Item] = []  # cards that surely end in my Expedition zone
    lost: list[int] = []  # cards that leave it
    mine = 0.0  # gains known only as an expectation
    others = 0.0
    i_win = winner in est.team  # (my partner's trick is my team's)
    share = 1.0 / max(n - 1, 1)
    led_hint = items[0].faction if items else None
    remaining = list(items)
    passes = est.passes

    for conds, order in profile.deals:
        dealt = [x for x in remaining if passes(conds, x, led_hint)]
        if not dealt:
            continue
        remaining = _without(remaining, dealt)
        for attr, direction in reversed(order):
            dealt.sort(key=lambda x: getattr(x, attr, 0) or 0, reverse=direction == "highest")
        for i, x in enumerate(dealt):
            if (winner + i) % n in est.team:
                gained.append(x)
            else:
                others += x.survivors
    for what, conds, dest in profile.partial:
        group = remaining if what == "trick" else ([enc] if enc else [])
        moved = [x for x in group if passes(conds, x, led_hint)]
        if what == "trick":
            remaining = _without(remaining, moved)
        elif moved:
            enc = None
        mine, others = _send(moved, dest, i_win, share, gained, mine, others)
    mine, others = _send(remaining, profile.trick, i_win, share, gained, mine, others)
    if enc is not None:
        mine, others = _send([enc], profile.encounter, i_win, share, gained, mine, others)
    for shed in profile.sheds:
        if shed.source not in ("expedition", "trick"):
            continue
        if i_win:
            pool: list[Item] = [x for x in gained if x.card is not None]
            if shed.source == "expedition":
                pool += [est.item(c) for c in est.my_pile]
            pool = [x for x in pool if passes(shed.conds, x, led_hint)]
            pool.sort(key=lambda x: x.m)
            gained, others = shed_from(pool, shed, gained, lost, others)
        elif shed.dest in (OTHER, CHOICE):
            mine += share * est.faction_mean(None) * shed.count
    if i_win:
        mine += 0.3 * profile.draws + (0.5 if profile.control else 0.0) + profile.score
        mine += 0.3 * sum(s.count for s in profile.sheds if s.source == "held")
    mine += est.set_worth([x.card for x in gained if x.card is not None], lost)
    mine += sum(x.m for x in gained if x.card is None)
    return mine - others / max(est.rivals, 1)


def _readable(observation: Mapping) -> Mapping:
    """The observation as the agent reads it: a seat view as it is (key by key), anything else as a dict."""
    if isinstance(observation, Observation) and observation._part is not None:
        return observation
    return as_dict(observation)


def _p_none(pool: int, good: int, draws: int) -> float:
    """Hypergeometric: the chance that `draws` cards from `pool` hold none of `good` (kept: a pure function of three small ints)."""
    key = (pool, good, draws)
    got = _P_NONE.get(key)
    if got is None:
        got = _P_NONE[key] = _p_none_of(pool, good, draws)
    return got


_P_NONE: dict[tuple[int, int, int], float] = {}


def _p_none_of(pool: int, good: int, draws: int) -> float:
    if good <= 0 or draws <= 0:
        return 1.0
    if good > pool - draws:
        return 0.0
    p = 1.0
    for i in range(draws):
        p *= (pool - good - i) / (pool - i)
    return p


class GreedyAgent:
    """A rule-of-thumb player. Construct with a seed; `bind(setup, seat)` before the first decision.

    `GreedyAgent(seed, setup=setup)` binds at once. The agent reads only the
    observation, the decision and the static setup (card list, compiled powers).
    """

    name = "greedy"

    def __init__(self, seed: int | str = 0, setup: GameSetup | None = None, samples: int = 2):
        self.seed = seed
        self.rng = random.Random(seed)
        self.samples = samples
        self.setup: GameSetup | None = None
        self.model: PowerModel | None = None
        self.seat: int | None = None
        self._chosen: list[int] = []
        self._encounter: int | None = None  # the Encounter card of the trick I last played to
        if setup is not None:
            self.bind(setup)

    def bind(self, setup: GameSetup, seat: int | None = None) -> "GreedyAgent":
        self.setup = setup
        self.model = power_model(setup)
        self.seat = seat
        self._chosen = []
        self._encounter = None
        return self

    def __repr__(self) -> str:
        return f"GreedyAgent(seed={self.seed!r})"

    # ------------------------------------------------------------ interface
    def decide(self, observation: dict, decision: Decision) -> int:
        if self.model is None:
            raise RuntimeError("GreedyAgent needs the game's setup: call bind(setup, seat) first "
                               "(or build it with GreedyAgent(seed, setup=setup))")
        options = decision.options
        if len(options) == 1:
            return 0
        kind = decision.kind
        if kind == "faction_change":
            for i, o in enumerate(options):
                if o.value is None:
                    return i
            return 0
        if kind == "replace_power":
            return 0
        observation = _readable(observation)  # (play_game hands a lazy Mapping, read key by key)
        if kind == "bid":
            return self._bid(card_ids(observation, "hand"), decision)
        if kind in ("lead", "follow", "transfer"):
            self._chosen = []
            encounter = card_ids(observation, "encounter")
            if encounter is not None:
                self._encounter = encounter
        est = self._estimate(observation)
        if kind == "transfer":
            return self._transfer(est, decision)
        if kind == "lead":
            return self._play(est, decision, lead=True)
        if kind == "follow":
            return self._play(est, decision, lead=False)
        if kind in ("choose", "ask"):
            index = self._choose(est, decision)
            value = options[index].value
            if isinstance(value, int) and not isinstance(value, bool) and kind == "choose" \
                    and self._element(decision, est.obs) == "Card":
                self._chosen.append(value)
            return index
        return 0

    def _estimate(self, observation: Mapping) -> Estimate:
        """The facts of one decision (a subclass may value cards differently: players/fast_greedy.py)."""
        return Estimate(self.model, observation, self.rng, self.samples)

    # --------------------------------------------------------------- helpers
    def _element(self, decision: Decision, obs: Mapping | None = None) -> str:
        """What a choice's options are: Card, Community, Faction or Yes/No."""
        if obs is not None and decision.kind == "choose":
            sites = self.model.choice_sites(obs, decision)
            if sites and sites[0].ins.get("element"):
                return sites[0].ins["element"]
        values = [o.value for o in decision.options if o.value != vm.STOP]
        if all(isinstance(v, bool) for v in values):
            return "Yes/No"
        if all(isinstance(v, str) for v in values):
            return "Faction"
        labels = [o.label for o in decision.options if o.value != vm.STOP]
        if labels and all(label.startswith("Community ") for label in labels):
            return "Community"
        return "Card"

    def hand_worth(self, est: Estimate, card: int) -> float:
        """What keeping a card in hand is worth (a negative card is a burden)."""
        got = est._memo.get(("hand", card))
        if got is None:
            got = est._memo["hand", card] = self._hand_worth(est, card)
        return got

    def _hand_worth(self, est: Estimate, card: int) -> float:
        spec = est.cards[card]
        rules = est.rules(card)
        if spec.value is None:
            return 2.0 if rules.always_playable else 0.5
        worth = est.m(card)
        if worth < 0:
            return 0.5 * worth
        spread = self.model.spread(spec.faction)
        if spread is not None:
            mid, half = spread
            extreme = abs(spec.value - mid) / half
        else:
            extreme = 0.0
        return 0.3 * extreme + (1.0 if rules.always_playable else 0.0)

    # ------------------------------------------------------------------- bid
    def _bid(self, hand: list[int], decision: Decision) -> int:
        """A cheap bid from my hand alone: a card in the top quarter of its Faction's values counts as a
        trick I may win, a Faction's strength is its length plus its high cards. A number is the tricks
        I count; a Faction (or a level and a Faction) is my strongest one, named only if it holds at least
        half my hand with its high cards, else I pass; the nearest legal option below is taken."""
        cards, high, length = self.setup.cards, {}, {}
        for c in hand:
            spec = cards[c]
            spread = self.model.spread(spec.faction) if spec.value is not None else None
            length[spec.faction] = length.get(spec.faction, 0) + 1
            if spread is not None and spec.value >= spread[0] + spread[1] / 2:
                high[spec.faction] = high.get(spec.faction, 0) + 1
        tricks = sum(high.values())
        strength = {f: length[f] + high.get(f, 0) for f in length}
        options = decision.options
        bids = [i for i, o in enumerate(options) if o.value != "pass"]
        passing = [i for i, o in enumerate(options) if o.value == "pass"]
        named = [i for i in bids if options[i].value[1] is not None]
        if named:
            best = max(named, key=lambda i: (strength.get(options[i].value[1], 0), -i))
            faction = options[best].value[1]
            if passing and 2 * strength.get(faction, 0) < len(hand):
                return passing[0]
            named = [i for i in named if options[i].value[1] == faction]
            bids = named
        if not bids:
            return passing[0] if passing else 0
        level = tricks + (length.get(options[bids[0]].value[1], 0) if named else 0) // 2
        under = [i for i in bids if (options[i].value[0] or 0) <= level]
        if not under:
            return passing[0] if passing else min(bids, key=lambda i: options[i].value[0] or 0)
        return max(under, key=lambda i: (options[i].value[0] or 0, -i))

    # -------------------------------------------------------------- transfer
    def _transfer(self, est: Estimate, decision: Decision) -> int:
        scores = [self.hand_worth(est, o.value) + self.rng.random() * 1e-6 for o in decision.options]
        return min(range(len(scores)), key=scores.__getitem__)

    # ---------------------------------------------------------- lead/follow
    def _winner(self, obs, plays: list[tuple[int, int, bool]], led: str | None, side: str, leader: int):
        """(seat, card, trump) of the best play so far by the public rules, or None."""
        cards = self.setup.cards
        high = side == "+"

        def best(ps):
            chosen = ps[0]
            for p in ps[1:]:
                v, w = cards[p[1]].value, cards[chosen[1]].value
                if (v > w) if high else (v < w):
                    chosen = p
            return chosen

        with_value = [p for p in plays if cards[p[1]].value is not None]
        trumps = [p for p in with_value if p[2]]
        if trumps:
            return best(trumps)
        following = [p for p in with_value if led is not None and cards[p[1]].faction == led]
        if following:
            return best(following)
        return None

    def _counted(self, est: Estimate, plays: list[tuple[int, int, bool]], led: str | None, side: str,
                 leader: int) -> dict:
        """card -> (Faction, value) each card of `plays` counts as by the game's game-wide `rule counts as`
        (the first whose condition holds; else its own), read on a stand-in of the table. Only asked in a game
        with such rules: the others read the printed Faction and value."""
        cards, on_table = est.cards, tuple(c for _, c, _ in plays)
        out = {}
        for seat, card, _ in plays:
            got = est._once(("counted", card, led, side, leader, on_table),
                            lambda: self._count_as(est, seat, card, led, side, leader, on_table))
            out[card] = got
        for card in on_table:
            out.setdefault(card, (cards[card].faction, cards[card].value))
        return out

    def _count_as(self, est: Estimate, seat: int, card: int, led, side: str, leader: int, on_table) -> tuple:
        probe = est._once(("bare probe",), lambda: _Probe(self.setup, est.obs, est.factions, {})).reset()
        ctx = vm.Ctx(probe, seat, {}, trick=tuple(c for c in on_table if c != card), led=led, leader=leader,
                     card=card, void=False, side=side)
        try:
            for condition, faction, rank in self.setup.game_counts_as:
                if condition(ctx):
                    return faction(ctx), rank(ctx)
        except Exception:  # a condition reading what the stand-in lacks: its printed Faction and value
            pass
        return est.cards[card].faction, est.cards[card].value

    def _trumps(self, est: Estimate, card: int, led: str | None, side: str, leader: int, held: list[int],
                as_faction: str | None = None) -> bool:
        rules = est.rules(card)
        if rules.trumps is None or led is None or (as_faction or est.cards[card].faction) == led:
            return False
        return est._once(("trumps", card, led, side, leader), lambda: self._cuts(est, rules, card, led, side, leader,
                                                                                  held))

    def _cuts(self, est: Estimate, rules, card: int, led: str, side: str, leader: int, held: list[int]) -> bool:
        void = not any(est.cards[c].faction == led for c in held)
        probe = est._once(("bare probe",), lambda: _Probe(self.setup, est.obs, est.factions, {})).reset()
        ctx = vm.Ctx(probe, est.me, {}, led=led, leader=leader, card=card, void=void, side=side)
        try:
            return bool(rules.trumps(ctx))
        except Exception:  # a condition reading what the stand-in lacks: assume no cut
            return False

    def _play_scores(self, est: Estimate, decision: Decision, lead: bool) -> list[float]:
        obs = est.obs
        me, n = est.me, est.n
        trick = obs["trick"]
        held = est.hand + est.transfer[me]
        plays0 = [(p["seat"], p["id"], bool(p.get("trump"))) for p in trick["plays"]]
        leader = trick["leader"]
        led0 = trick["led"]
        voids = trick_voids(self.setup, obs)
        for seat, factions in enumerate(obs.get("voids", ())):  # shown earlier in the round
            voids.setdefault(seat, set()).update(factions)
        played = {p[0] for p in plays0} | {me}
        rest = []
        for step in range(1, n):
            seat = (leader + step) % n
            if seat not in played and (est.hand_sizes[seat] + len(est.transfer[seat])) > 0:
                rest.append(seat)
        encounter = est.encounter
        enc_item = est.item(encounter) if encounter is not None else None
        items0 = [est.item(c) for _, c, _ in plays0]  # the cards on the table (their worths draw nothing)
        scores = []
        for option in decision.options:
            if lead:
                card, side = option.value
            else:
                card, side = option.value, trick["side"]
            score = self._score_play(est, card, side, plays0, items0, led0, leader, rest, held, voids, enc_item)
            scores.append(score - self.hand_worth(est, card))
        return scores

    def option_scores(self, observation: dict, decision: Decision) -> list[float] | None:
        """The agent's estimate of each option of a lead, follow or Transfer pass (higher is better)."""
        if self.model is None:
            raise RuntimeError("GreedyAgent needs the game's setup: call bind(setup, seat) first")
        est = self._estimate(_readable(observation))
        if decision.kind in ("lead", "follow"):
            return self._play_scores(est, decision, decision.kind == "lead")
        if decision.kind == "transfer":
            return [-self.hand_worth(est, o.value) for o in decision.options]
        return None

    def _play(self, est: Estimate, decision: Decision, lead: bool) -> int:
        scores = self._play_scores(est, decision, lead)
        return max(range(len(scores)), key=lambda i: (scores[i], self.rng.random()))

    def _score_play(self, est: Estimate, card: int, side: str, plays0, items0, led0, leader, rest, held, voids,
                    enc_item) -> float:
        me = est.me
        cards = est.cards
        rules = est.rules(card)
        led = led0
        counted = None
        if self.setup.game_counts_as:  # (a game with game-wide `rule counts as`: the Factions cards count as)
            counted = self._counted(est, plays0 + [(me, card, False)], led0, side, leader)
        if led is None and not rules.never_leads:
            led = cards[card].faction if counted is None else counted[card][0]
        trump = rules.trumps is not None and self._trumps(est, card, led, side, leader, held,
                                                           None if counted is None else counted[card][0])
        plays = plays0 + [(me, card, trump)]
        best = _best_play(cards, plays, led, side == "+", counted)  # (the public rules: _winner)
        items = items0 + [est.item(card)]

        # what the others still to play are likely to add, and whether they can beat the best card
        # (the chances depend on the Faction led, the seat and the card to beat: worked out once
        # per decision, in _follows and _beats; what each seat adds, once per Faction led)
        trick_worth = sum(i.m for i in items) + (enc_item.m if enc_item else 0.0)
        team = est.team  # (my partner's winning card wins for me too: I need not beat it)
        p_win = 1.0 if best is not None and best[0] in team else 0.0
        likely_winner = best[0] if best is not None else (rest[0] if rest else leader)
        if led is None:
            p_win = 0.0
            likely_winner = rest[0] if rest else leader
        biggest = 0.0
        memo = est._memo
        adds = memo.get(("adds", led))
        if adds is None:
            adds = memo["adds", led] = self._additions(est, led, rest, voids)
        contest = best is not None and best[0] in team
        if contest and not best[2]:
            bval = cards[best[1]].value if counted is None else counted[best[1]][1]
        for seat, add in adds:
            items.append(add)
            trick_worth += add.m
            # can this seat beat the best card? (my partner beating it still wins for my team)
            if not contest or seat in team:
                continue
            if best[2]:
                beat = 0.0
            else:
                beat = memo.get(("beat", led, bval, side, seat))
                if beat is None:
                    beat = memo["beat", led, bval, side, seat] = self._beats(est, led, bval, side, seat, voids)
            want = 1.0 if trick_worth > 0 else 0.3
            p_beat = beat * want
            if p_beat > biggest:
                biggest, likely_winner = p_beat, seat
            p_win *= 1.0 - p_beat
        if best is not None and best[0] not in team:
            likely_winner = best[0]
        profile = memo.get(("on win", led))
        if profile is None:
            profile = memo["on win", led] = self.model.on_win(est.obs, led)
        blocked = trump and rules.blocks_led_power
        if blocked or led is None:
            profile = OnWin()
        u_win = u_lose = 0.0
        if p_win > 0:
            u_win = self._utility_of(est, profile, items, enc_item, me)
        if p_win < 1:
            u_lose = self._utility_of(est, profile, items, enc_item, likely_winner)
        score = p_win * u_win + (1 - p_win) * u_lose
        if (len(team) > 1 and best is not None and best[0] == me
                and overtakes(cards, plays0, led0, side, team, rest, counted)):
            score -= OVERTAKE  # my partner's card wins already and no rival plays after me: mine is spent for nothing
        return score

    def _additions(self, est: Estimate, led: str | None, rest: list[int], voids) -> list[tuple[int, Item]]:
        """(seat, what it probably adds) for each seat still to play, in turn, when `led` is led."""
        memo = est._memo
        out = []
        for k, seat in enumerate(rest):
            follow_p = memo.get(("follows", led, seat))
            if follow_p is None:
                follow_p = memo["follows", led, seat] = self._follows(est, led, seat, voids)
            out.append((seat, est.addition(led, follow_p, k)))
        return out

    def _utility_of(self, est: Estimate, profile: OnWin, items: list[Item], enc: Item | None, winner: int) -> float:
        """_utility, once per decision for the same trick (the same Item objects), profile and winner.

        The two sides of a lead often make the same trick. Items are kept by the Estimate for
        the decision (est.item, est.addition), so their ids name them; the profile is kept in
        the memo beside its result, so its id names it too.
        """
        key = ("utility", id(profile), tuple(map(id, items)), id(enc), winner)
        got = est._memo.get(key)
        if got is None:
            got = est._memo[key] = (self._utility(est, profile, items, enc, winner), profile)
        return got[0]

    @staticmethod
    def _unseen_of(est: Estimate, led: str | None) -> list[int]:
        """The unseen cards of the Faction led."""
        return est.unseen_by_faction.get(led, []) if led else []

    @staticmethod
    def _transfer_ids(est: Estimate, seat: int) -> list[int]:
        return est.transfer[seat]

    def _follows(self, est: Estimate, led: str | None, seat: int, voids) -> float:
        """The chance that `seat` plays a card of the Faction led."""
        if led is None:
            return 1.0
        if led in voids.get(seat, ()):
            return 0.0
        cards = est.cards
        for c in self._transfer_ids(est, seat):
            if cards[c].faction == led:
                return 1.0
        return 1.0 - _p_none(len(est.unseen), len(self._unseen_of(est, led)), est.hand_sizes[seat])

    def _beats(self, est: Estimate, led: str | None, bval: int, side: str, seat: int, voids) -> float:
        """The chance that `seat` holds a card of the Faction led better than `bval` on `side`."""
        if led in voids.get(seat, ()):
            return 0.0
        memo = est._memo
        values = memo.get(("values of", led))
        if values is None:  # the values of the unseen cards of the Faction led, sorted
            cards = est.cards
            values = memo["values of", led] = sorted(cards[c].value for c in self._unseen_of(est, led)
                                                     if cards[c].value is not None)
        # how many are better: those above bval on the + side, below it on the - side (a better card
        # in the seat's Transfer zone would be a sure beat, but the observer sees those zones: their
        # cards are never among the unseen)
        better = len(values) - bisect_right(values, bval) if side == "+" else bisect_left(values, bval)
        key = ("beats", better, seat)
        got = memo.get(key)
        if got is None:
            got = memo[key] = 1.0 - _p_none(len(est.unseen), better, est.hand_sizes[seat])
        return got

    def _utility(self, est: Estimate, profile: OnWin, items: list[Item], enc: Item | None, winner: int) -> float:
        """My gain minus the others' mean gain when `winner` takes the trick and its power runs."""
        return trick_utility(est, profile, items, enc, winner)

    # --------------------------------------------------------------- choices
    def _choose(self, est: Estimate, decision: Decision) -> int:
        obs = est.obs
        options = decision.options
        element = self._element(decision, obs)
        sites = self.model.choice_sites(obs, decision)
        site = sites[0] if sites else None
        if element == "Yes/No":
            return self._ask(est, decision, site)
        values = [o.value for o in options]
        stop = next((i for i, v in enumerate(values) if v == vm.STOP), None)
        var = site.ins.get("name") if site else None
        uses = self._uses(site, var) if site else []
        if element == "Card":
            return self._choose_card(est, decision, site, uses, stop)
        if element == "Community":
            return self._choose_community(est, decision, site, uses)
        if element == "Faction":
            return self._choose_faction(est, decision)
        return 0

    @staticmethod
    def _uses(site: ChoiceSite, var: str) -> list[dict]:
        """The effect statements of the choice's body that mention the chosen variable."""
        out = []
        for ins in site.body:
            if ins["op"] == "effect" and var in _names(ins["statement"]):
                out.append(ins["statement"])
            elif ins["op"] == "choose" and var in _names(ins["source"]):
                out.append({"node": "ChooseFrom", "ins": ins})
        # statements further down the hook (a variable chosen by `choose` lives on)
        return out

    def _population_leader(self, obs, seats: list[int]) -> int:
        """The seat doing best (the highest score, the lowest where the fewest win)."""
        sign = self.model.sign
        return max(seats, key=lambda s: (sign * (obs["populations"][s] + obs["round_gains"][s]), -s))

    def _weakest(self, obs, seats: list[int]) -> int:
        sign = self.model.sign
        return min(seats, key=lambda s: (sign * (obs["populations"][s] + obs["round_gains"][s]), s))

    def _choose_card(self, est: Estimate, decision: Decision, site, uses, stop) -> int:
        me = est.me
        options = decision.options
        hand = set(est.hand) | set(est.transfer[me])
        direction = "away"  # send the worst away
        giving_hand = False
        for st in uses:
            if st.get("node") == "Move" or st.get("node") == "ChooseFrom":
                if st.get("node") == "ChooseFrom":
                    direction = "away"
                    continue
                dest = _dest_class(st["dest"], site.bindings)
                owner = st["dest"].get("owner")
                if owner is not None and owner == site.ins.get("chooser"):
                    dest = ME  # the chooser moves the card to itself
                kind = st["dest"].get("kind")
                if dest == ME and kind in ("expedition",):
                    direction = "keep"
                elif dest == ME and kind in ("hand", "transfer"):
                    direction = "take"
                else:
                    direction = "away"
                    giving_hand = kind in ("hand", "transfer", "reserve_top", "reserve_bottom")
        cands = [(i, o.value) for i, o in enumerate(options) if o.value != vm.STOP]
        from_hand = all(c in hand for _, c in cands)

        def worth(card):
            if from_hand or giving_hand and card in hand:
                return self.hand_worth(est, card)
            return est.m(card)

        if direction in ("keep", "take"):
            i, _ = max(cands, key=lambda ic: (worth(ic[1]), self.rng.random()))
            return i
        i, card = min(cands, key=lambda ic: (worth(ic[1]), self.rng.random()))
        if stop is not None and worth(card) >= 0 and not from_hand:
            return stop
        return i

    def _moved_worth(self, est: Estimate, st: dict, site: ChoiceSite) -> tuple[float, bool]:
        """(worth to me of the cards a Move sends, known?) for a Community choice."""
        obs = est.obs
        base, _ = _unwrap(st["cards"])
        items = [st["cards"]["left"], st["cards"]["right"]] if st["cards"].get("node") == "Arith" else [st["cards"]]
        total = 0.0
        known = True
        for item in items:
            base, conds = _unwrap(item)
            name = base.get("name") if base.get("node") == "NameRef" else None
            if name == "trick" and obs.get("trick"):
                cards = [p["id"] for p in obs["trick"]["plays"]]
                total += sum(est.m(c) for c in cards if matches(conds, est.cards[c], obs["trick"].get("led")))
            elif name == "encounter":
                if est.encounter is not None:
                    total += est.m(est.encounter)
                elif self._encounter is not None:  # already moved into the winner's zone: remembered
                    total += est.m(self._encounter)
                else:
                    total += est.faction_mean(None)
                    known = False
            elif name in site.bindings and site.bindings[name]["element"] == "Card" and self._chosen:
                total += est.m(self._chosen[-1])
            else:
                total += est.faction_mean(None)
                known = False
        return total, known

    def _choose_community(self, est: Estimate, decision: Decision, site, uses) -> int:
        obs = est.obs
        me = est.me
        seats = [o.value for o in decision.options]
        others = [s for s in seats if s != me]
        var = site.ins.get("name") if site else None
        for st in uses:
            node = st.get("node")
            if node == "NextLeader":
                target = me if me in seats else self._weakest(obs, others)
                return seats.index(target)
            if node == "Move":
                dest = st["dest"]
                owner = dest.get("owner")
                if owner is not None and var in _names(owner):  # cards go to the chosen Community
                    worth, _ = self._moved_worth(est, st, site)
                    if worth >= 0:
                        target = me if me in seats else self._weakest(obs, others)
                    else:
                        target = self._population_leader(obs, others) if others else me
                    return seats.index(target)
                # cards taken from the chosen Community (blind): they are worth the average unseen card
                worth = est.faction_mean(None)
                dest_class = _dest_class(dest, site.bindings)
                if dest_class == ME and worth > 0 or dest_class != ME and worth < 0:
                    target = self._weakest(obs, others) if others else me
                else:
                    target = self._population_leader(obs, others) if others else me
                if target not in seats:
                    target = seats[0]
                return seats.index(target)
            if node == "ChooseFrom":
                # a later choice among the chosen Community's cards, then moved: treat as taking from it
                target = self._population_leader(obs, others) if others else me
                return seats.index(target)
        # unknown use: prefer myself for something positive is unknowable; pick the population leader
        if others:
            return seats.index(self._population_leader(obs, others))
        return 0

    def _choose_faction(self, est: Estimate, decision: Decision) -> int:
        me = est.me
        held = est.hand + est.transfer[me]
        best, best_i = None, 0
        for i, o in enumerate(decision.options):
            mine = [c for c in held if est.cards[c].faction == o.value]
            worth = est.faction_mean(o.value)
            score = len(mine) * (1 if worth >= 0 else -1) + 0.1 * worth + self.rng.random() * 1e-6
            if best is None or score > best:
                best, best_i = score, i
        return best_i

    def _ask(self, est: Estimate, decision: Decision, site) -> int:
        yes = next((i for i, o in enumerate(decision.options) if o.value is True), 0)
        no = next((i for i, o in enumerate(decision.options) if o.value is False), yes)
        if site is None:
            return yes
        worth = 0.0
        for ins in site.body:
            if ins["op"] != "effect":
                continue
            st = ins["statement"]
            if st.get("node") == "Score":
                amount = st.get("amount") or {}
                value = amount.get("value", 1) if amount.get("node") == "IntLit" else 1
                sign = st.get("sign", 1) * self.model.sign  # (a gain counts against where the fewest win)
                worth += sign * value if st.get("whom") is None else -sign * value
            elif st.get("node") == "Move":
                moved, _ = self._moved_worth(est, st, site)
                dest = _dest_class(st["dest"], site.bindings)
                worth += moved if dest == ME else -moved
        return yes if worth >= 0 else no


__all__ = ["GreedyAgent", "PowerModel", "power_model", "OnWin", "analyse_on_win", "Estimate"]
