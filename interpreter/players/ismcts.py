"""ISMCTSAgent: information-set Monte Carlo search at leads and follows.

By default (`search="paired"`, issue 34) a flat search whose root moves are
compared on common random numbers: interpreter/players/ismcts_paired.py. With
`search="tree"` the tree search below, the default before.

The tree search follows Cowling, Powley and Whitehouse, "Information Set Monte
Carlo Tree Search" (IEEE TCIAIG 2012), SO-ISMCTS: one tree whose nodes are
moves seen from the searching Community's point of view. Each iteration

1. **determinizes**: samples a full game consistent with the observation
   (determinize.sample_state: the other hands, the face-down Expedition cards
   and the Reserve dealt at random among the hidden places);
2. **selects** down the tree with UCB1 among the moves *available in this
   determinization* (a child's availability count, not its parent's visits,
   is the exploration term's denominator), each player choosing the move best
   for itself;
3. **expands** one untried move;
4. **plays out** the rest of the ROUND (not of the game) with a fast policy
   (PlayoutPolicy by default);
5. **backpropagates** each player's reward: its round delta (Survivors gained
   minus lost at the count, less what it had banked when the search began)
   against the others', squashed into [0, 1].

Tree nodes are made for leads and follows (and Transfer passes with
`search_transfers=True`) — the searcher's own moves, and with
`opponents_in_tree=True` the others' too (the textbook tree; by default the
others' moves are played by the playout policy, which measured stronger at
the budgets a Python kernel affords). Choices inside powers met during an
iteration are answered by the playout policy. Every decision the agent does
not search goes to a rules-of-thumb bot (`anchor`: the `greedy` bot by
default), which also picks the root moves worth searching (`widen`) and
supplies the move the search must clearly beat (`final="anchored"`); see
docs/bots.md.

The agent sees only the observation and the static setup, like GreedyAgent:
`bind(setup, seat)` before the first decision, or `ISMCTSAgent(..., setup=setup)`.
"""

from __future__ import annotations

import math
import random
import time
from typing import Mapping

from happydayz.base.draws import choice, randbelow
from happydayz.language import vm
from happydayz.players.agents import as_dict
from happydayz.players.fast_greedy import FastGreedyAgent
from happydayz.players.greedy import CHOICE, ME, GreedyAgent, OnWin, _dest_class, _names, _unwrap, matches, power_model
from happydayz.kernel.determinize import SUPPORTED_KINDS, DeterminizeError, Sampler
from happydayz.kernel.game import Decision, Game
from happydayz.kernel.setup import GameSetup
from happydayz.kernel.tables import tables_of
from happydayz.players import ismcts_paired as paired


class _TreeDecision(Exception):
    """A search's playout has come to a decision its tree answers (see ISMCTSAgent._iterate)."""


class Node:
    __slots__ = ("actor", "edges", "visits", "avail", "reward", "squares")

    def __init__(self, actor: int | None = None):
        self.actor = actor  # who made the move leading here
        self.edges: dict = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0  # the sum of the rewards of `actor`
        self.squares = 0.0  # their sum of squares (for the final choice's confidence test)

    def mean(self) -> float:
        return self.reward / self.visits if self.visits else 0.0

    def variance_of_mean(self) -> float:
        if self.visits < 2:
            return 0.25
        mean = self.reward / self.visits
        var = max(self.squares / self.visits - mean * mean, 0.0) * self.visits / (self.visits - 1)
        return var / self.visits


def move_key(decision: Decision, index: int):
    """A hashable name for an option, the same in every determinization."""
    value = decision.options[index].value
    if isinstance(value, list):
        value = tuple(value)
    return decision.kind, value


ANCHORS = {"greedy": FastGreedyAgent, "greedy-reference": GreedyAgent}  # (the registry's names)


class ISMCTSAgent:
    """Information-set MCTS at leads and follows; the anchor bot for the rest.

    Budget: `iterations` per searched decision, or `milliseconds` of thinking
    per searched decision (milliseconds wins when both are given), counted on
    `clock`: "wall" (time.perf_counter) or "cpu" (the process's CPU time).
    `rollout`: "light" (PlayoutPolicy), "random" or "greedy" (GreedyAgent: far
    slower). `reward`: "mean" (a Community's round delta minus the others'
    mean), "best" (minus the best other's) or "margin" (its population after
    the count minus the best other's), squashed by tanh(diff / scale).
    `anchor`: the rules-of-thumb bot that answers every decision not searched,
    ranks the root moves and supplies the anchored move: "greedy"
    (FastGreedyAgent, the default) or "greedy-reference" (GreedyAgent).
    `exploration`: the UCB1 constant. `widen`: search only the anchor bot's best
    N root moves (None: all). `final`: "anchored" (the anchor bot's move unless a
    searched move beats it by `confidence` standard errors) or "visits" (the
    most visited move). `opponents_in_tree`: make tree nodes for the others'
    moves too. `search_transfers`: search Transfer passes as well.
    `search`: "paired" (ismcts_paired: every sample played out for each root
    candidate with common random numbers; `iterations` counts playouts) or
    "tree". `reward="win"`: half the win share, half the squashed margin.
    `playout_explore`: the light playouts' share of random leads. `race`:
    paired only, drop a candidate its leader beats by that many standard errors.
    """

    name = "ismcts"
    TREE_KINDS = ("lead", "follow")

    def __init__(self, seed: int | str = 0, iterations: int = 600, milliseconds: float | None = None,
                 setup: GameSetup | None = None, exploration: float = 0.7, rollout: str = "light",
                 reward: str = "win", scale: float = 12.0, search_transfers: bool = False,
                 widen: int | None = 6, opponents_in_tree: bool = False, final: str = "anchored",
                 confidence: float = 2.0, search: str = "paired", playout_explore: float = 0.15,
                 race: float | None = None, clock: str = "wall", anchor: str = "greedy"):
        if search not in ("paired", "tree"):
            raise ValueError(f"search must be 'paired' or 'tree', not {search!r}")
        self.search_mode = search
        self.playout_explore = playout_explore
        if clock not in ("wall", "cpu"):
            raise ValueError(f"clock must be 'wall' or 'cpu', not {clock!r}")
        # what a milliseconds budget counts: wall time, or this process's CPU time (on a machine shared with
        # other work, the time one core of its own would have taken)
        self.clock = time.perf_counter if clock == "wall" else time.process_time
        self.race = race  # paired: drop a candidate its leader beats by this many standard errors (None: never)
        self.last_search: dict = {}  # what the last paired search did (candidates, samples, means): for tests
        self.seed = seed
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.milliseconds = milliseconds
        self.exploration = exploration
        self.rollout = rollout
        self.reward_mode = reward
        self.scale = scale
        self.widen = widen
        self.final = final
        self.confidence = confidence
        self._anchor: int | None = None
        self.opponents_in_tree = opponents_in_tree
        self.tree_kinds = self.TREE_KINDS + (("transfer",) if search_transfers else ())
        if anchor not in ANCHORS:
            raise ValueError(f"anchor must be one of {', '.join(map(repr, ANCHORS))}, not {anchor!r}")
        self.anchor = anchor
        # the rules-of-thumb bot that answers what is not searched, ranks the root moves and supplies the anchor:
        # `greedy` (FastGreedyAgent) also plays for a contract — bids a number of tricks, then wants exactly
        # that many — where `greedy-reference` (GreedyAgent) does not (docs/bots.md, "The anchor")
        self.fallback = ANCHORS[anchor](random.Random(f"{seed}/greedy").getrandbits(32))
        self._policy_bots: dict[int, GreedyAgent] = {}
        self.setup: GameSetup | None = None
        self.seat: int | None = None
        self._root_allowed: set[int] = set()
        self._sampler: Sampler | None = None  # the search's determinizations (see _sample)
        self._playout: PlayoutPolicy | None = None
        self.stats = {"decisions": 0, "iterations": 0, "seconds": 0.0}
        if setup is not None:
            self.bind(setup)

    def bind(self, setup: GameSetup, seat: int | None = None) -> "ISMCTSAgent":
        self.setup = setup
        self.seat = seat
        self.fallback.bind(setup, seat)
        self._policy_bots = {}
        self._playout = None
        return self

    def __repr__(self) -> str:
        budget = f"milliseconds={self.milliseconds}" if self.milliseconds else f"iterations={self.iterations}"
        return f"ISMCTSAgent(seed={self.seed!r}, {budget}, rollout={self.rollout!r})"

    # ------------------------------------------------------------ interface
    def decide(self, observation: dict, decision: Decision) -> int:
        if self.setup is None:
            raise RuntimeError("ISMCTSAgent needs the game's setup: call bind(setup, seat) first "
                               "(or build it with ISMCTSAgent(seed, setup=setup))")
        if len(decision.options) == 1:
            return 0
        if decision.kind not in self.tree_kinds or decision.kind not in SUPPORTED_KINDS:
            return self.fallback.decide(observation, decision)
        # what the fallback remembers between decisions (it does not see this one)
        self.fallback._chosen = []
        if observation.get("encounter"):
            self.fallback._encounter = observation["encounter"]["id"]
        start = time.perf_counter()
        try:
            index = self.search(observation, decision)
        except DeterminizeError:
            index = self.fallback.decide(observation, decision)
        self.stats["decisions"] += 1
        self.stats["seconds"] += time.perf_counter() - start
        return index

    # --------------------------------------------------------------- search
    def root_moves(self, observation: Mapping, decision: Decision) -> list[int]:
        """The options the search considers: the anchor bot's best `widen` ones (all if widen is None)."""
        every = list(range(len(decision.options)))
        self._anchor = None
        if self.final != "anchored" and (not self.widen or len(every) <= self.widen):
            return every
        scores = self.fallback.option_scores(observation, decision)
        if scores is None:
            return every
        ranked = sorted(every, key=lambda i: -scores[i])
        self._anchor = ranked[0]
        if not self.widen or len(every) <= self.widen:
            return every
        return sorted(ranked[: self.widen])

    def search(self, observation: Mapping, decision: Decision) -> int:
        observation = as_dict(observation)  # read once, not per sample
        root = Node()
        allowed = self.root_moves(observation, decision)
        if len(allowed) == 1:
            return allowed[0]
        if self.search_mode == "paired":
            return paired.search(self, observation, decision, allowed)
        self._root_allowed = set(allowed)
        deadline = None
        if self.milliseconds:
            deadline = self.clock() + self.milliseconds / 1000.0
        count = 0
        self._sampler = None  # made at the first sample (see _sample)
        try:
            while True:
                if deadline is not None:
                    if count > 0 and self.clock() >= deadline:
                        break
                elif count >= self.iterations:
                    break
                self._iterate(root, observation, decision)
                count += 1
        finally:
            self._sampler = None
        self.stats["iterations"] += count
        return self.choose_move(root, decision, allowed)

    def choose_move(self, root: Node, decision: Decision, allowed: list[int]) -> int:
        """The move to play once the search is done.

        "visits": the most visited move (ties: the better mean). "anchored"
        (the default): the anchor bot's choice unless another move's mean reward
        beats it by more than `confidence` standard errors of the difference
        — a search of a few hundred playouts is noisy, so it overrules the
        rule of thumb only on clear evidence.
        """
        found = {i: root.edges.get(move_key(decision, i)) for i in allowed}
        visited = {i: c for i, c in found.items() if c is not None and c.visits}
        if not visited:
            return self._anchor if self._anchor in allowed else allowed[0]
        if self.final == "visits" or self._anchor not in visited:
            return max(visited, key=lambda i: (visited[i].visits, visited[i].mean(), -i))
        anchor = visited[self._anchor]
        best = max(visited, key=lambda i: (visited[i].mean(), visited[i].visits, -i))
        if best == self._anchor:
            return best
        other = visited[best]
        spread = math.sqrt(anchor.variance_of_mean() + other.variance_of_mean())
        if other.mean() - anchor.mean() > self.confidence * spread:
            return best
        return self._anchor

    def _sample(self, observation: Mapping, decision: Decision) -> Game:
        """One determinization of the observation (bench/paired_ismcts.py --oracle replaces it by the real game).

        What the observation says is read once per search (determinize.Sampler, made at the first
        sample: an observation it cannot sample raises DeterminizeError there, and the decision
        goes to the anchor bot); each sample then deals the hidden cards anew.
        """
        sampler = self._sampler
        if sampler is None:
            sampler = self._sampler = Sampler(self.setup, observation, decision=decision, quiet=True)
        return sampler.sample(self.rng)

    def _iterate(self, root: Node, observation: Mapping, decision: Decision) -> None:
        game = self._sample(observation, decision)
        history = len(game.history)
        # What each Community already holds in this determinization is the same whatever
        # is played now: counting only what changes from here on removes most of the
        # noise the sampled Expedition zones would add to every reward (the "margin" reward
        # compares final populations, so it needs none of it).
        banked = None
        if self.reward_mode not in ("margin", "win"):
            survivors = self._survivors()
            zones, round_gain = game.zones, game.round_gain
            banked = [sum(map(survivors.__getitem__, zones[key])) + round_gain[s]
                      for s, key in enumerate(game.expedition_keys)]
        path: list[Node] = []
        node = root
        me = observation["seat"]
        tree_kinds, opponents = self.tree_kinds, self.opponents_in_tree
        policy = self._chooser(game)
        tree_move: list[int] = []  # the tree's answer to the decision pending, when it has chosen one

        def until_tree(d: Decision) -> int:
            """The tree's move, then the policy's answers up to the tree's next decision."""
            if tree_move:
                return tree_move.pop()
            if d.kind in tree_kinds and (d.decider == me or opponents):
                raise _TreeDecision  # (before any draw: Game.play leaves the decision unanswered)
            return policy(d)

        while game.decision is not None and len(game.history) == history:
            d = game.decision
            if d.kind in tree_kinds and (d.decider == me or opponents):
                child, i, expanded = self._tree_step(root, node, d)
                path.append(child)
                if expanded:
                    game.apply(i)
                    # the rest of the round is the playout (a round counted from after this move:
                    # should the move end one, the playout plays the next)
                    game.play(policy, round_only=True)
                    break
                node = child
                tree_move.append(i)
            # The tree's move, then the policy's up to the tree's next decision, in Game.play's fast
            # loop rather than Game.apply's one decision at a time. (Game.play answers as
            # apply(choose(decision)) in a loop does: _TreeDecision leaves that decision pending.)
            try:
                game.play(until_tree, round_only=True)
            except _TreeDecision:
                pass
        rewards = self.rewards(game, history, banked)
        for n in path:
            n.visits += 1
            r = rewards[n.actor]
            n.reward += r
            n.squares += r * r

    def _tree_step(self, root: Node, node: Node, d: Decision) -> tuple[Node, int, bool]:
        """(child, option, expanded) at a tree decision: an untried move at random (a new child), else UCB1's pick.

        Every move available here that the tree knows counts one more availability.
        """
        kind = d.kind
        keys = [(kind, o[0]) for o in d.options]  # move_key of each option (their values are ints and tuples)
        legal = range(len(keys)) if node is not root else sorted(self._root_allowed)
        edges = node.edges
        untried = []
        for i in legal:
            child = edges.get(keys[i])
            if child is None:
                untried.append(i)
            else:
                child.avail += 1
        if untried:
            i = untried[randbelow(self.rng, len(untried))]
            child = Node(d.decider)
            child.avail = 1
            edges[keys[i]] = child
            return child, i, True
        log_c = self.exploration
        best_i, best_u = 0, -1.0
        sqrt, log = math.sqrt, math.log
        for i in legal:
            child = edges[keys[i]]
            u = child.reward / child.visits + log_c * sqrt(log(child.avail) / child.visits)
            if u > best_u:
                best_i, best_u = i, u
        return edges[keys[best_i]], best_i, False

    def _survivors(self) -> tuple:
        """The Survivors of each card id."""
        got = getattr(self, "_survivor_table", None)
        if got is None or got[0] is not self.setup:
            got = self._survivor_table = (self.setup, tuple(c.survivors for c in self.setup.cards))
        return got[1]

    # -------------------------------------------------------------- playout
    def _policy(self, game: Game, decision: Decision) -> int:
        if len(decision.options) == 1:
            return 0
        if self.rollout == "greedy":
            bot = self._policy_bots.get(decision.decider)
            if bot is None:
                bot = GreedyAgent(self.rng.getrandbits(32), samples=1).bind(self.setup, decision.decider)
                self._policy_bots[decision.decider] = bot
            return bot.decide(game.observe(decision.decider), decision)
        if self.rollout == "light":
            if self._playout is None:
                self._playout = PlayoutPolicy(self.setup, self.rng)
            return self._playout(game, decision)
        return randbelow(self.rng, len(decision.options))

    def _chooser(self, game: Game):
        """`decision -> index` for Game.play: `self._policy(game, decision)`, with the light policy's dispatch inlined."""
        if self.rollout != "light":
            return lambda decision: self._policy(game, decision)
        if self._playout is None:
            self._playout = PlayoutPolicy(self.setup, self.rng)
        return self._playout.chooser(game)

    def _paired_chooser(self, crn: random.Random):
        """`game -> chooser` for the paired search's playouts, the policy drawing from `crn` (reseeded by the search).

        The light policy gets its own PlayoutPolicy (the tree search's draws from self.rng stay as they were);
        "greedy" playouts draw from the agent's bots (no common numbers there: a diagnostic setting).
        """
        if self.rollout == "light":
            policy = getattr(self, "_crn_playout", None)
            if policy is None or policy.setup is not self.setup:
                policy = self._crn_playout = PlayoutPolicy(self.setup, crn, explore=self.playout_explore)
            return paired.light_chooser(policy, crn)
        if self.rollout == "random":
            return paired.random_chooser(crn)
        return lambda game: (lambda decision: self._policy(game, decision))

    def rewards(self, game: Game, history: int, banked: list[int] | None = None) -> list[float]:
        """Each Community's reward in [0, 1] for the round the playout ended.

        "mean" and "best": its round delta (less what it had `banked` when the
        search started) against the others' mean or the best other's.
        "margin": its population after the count against the best other's —
        what decides who wins. The difference is squashed by tanh(diff / scale).
        """
        n = game.n
        if len(game.history) > history:
            record = game.history[-1]
        else:  # pragma: no cover - a playout always reaches the count
            record = {"deltas": list(game.round_gain), "populations": list(game.population)}
        if self.reward_mode in ("margin", "win"):
            scores = list(record["populations"])
        else:
            scores = list(record["deltas"])
            if banked is not None:
                scores = [d - b for d, b in zip(scores, banked)]
        if self.setup is not None and self.setup.winner == "fewest":  # the hand's score: the
            # fewest win, so less is better
            scores = [-score for score in scores]
        setup = self.setup
        if self.reward_mode == "win":
            return paired.win_rewards(scores, setup, self.scale)
        if setup is not None and setup.teams is not None:  # a team wins together: its score, against the others'
            return self._team_rewards(scores, setup)
        return [self._reward(scores[s], scores[:s] + scores[s + 1:]) for s in range(n)]

    def _reward(self, mine: float, others: list[float]) -> float:
        """A score against the others' (their mean or their best, by reward_mode), squashed into 0..1."""
        diff = mine - (sum(others) / len(others) if self.reward_mode == "mean" else max(others))
        return 0.5 + 0.5 * math.tanh(diff / self.scale)

    def _team_rewards(self, scores: list[float], setup: GameSetup) -> list[float]:
        """Each Community's reward with teams: its team's score (a pooled population is the team's already)
        against the other teams' — a partner is never an opponent."""
        pooled_margin = setup.pooled and self.reward_mode in ("margin", "win")
        team_score = [scores[team[0]] if pooled_margin else sum(scores[s] for s in team) for team in setup.teams]
        teams = [setup.team_index[s] for s in range(len(scores))]
        return [self._reward(team_score[mine], [score for t, score in enumerate(team_score) if t != mine] or [0])
                for mine in teams]


class PlayoutPolicy:
    """A fast playout policy that reads the sampled game (the searcher's imagined world).

    It knows what winning a trick of each Faction does from the same reading of
    the compiled powers as GreedyAgent (bots.analyse_on_win): whether the
    trick and the Encounter card stay with the winner, which cards are dealt
    round the table; and it answers choices inside powers the way GreedyAgent
    does (negative cards away, to the Community standing best; positive ones
    kept), reading the running power's variables where it needs them. Card
    worth is the printed `survivors` only, turned round where the fewest win
    (PowerModel.sign): end-of-round hooks are not run.

    Follow: when the trick is worth having, play the cheapest card that takes
    the lead, else shed the worst card; when it is not, shed the worst card
    that stays below the best one. Lead: the card and side with the best
    prospect — a card nobody can beat (the sampled hands are known here)
    scores what the trick would be worth with what the others would add; a
    card somebody can beat scores as a way to shed it — except for a share
    `explore` of leads made at random, on the side where the card is likely
    to win if winning it would be worth Survivors, to lose if not. Transfer:
    pass the worst card.

    It runs for nearly every move of every playout, so it reads the cards
    through per-card tables and keeps what depends only on the Factions in
    play (each Faction's on-win summary, the choice sites of powers) until
    they change.
    """

    def __init__(self, setup: GameSetup, rng: random.Random, explore: float = 0.15):
        self.setup = setup
        self.explore = explore  # the share of leads made at random (diversity)
        self.cards = setup.cards
        self.model = power_model(setup)
        self.rng = rng
        tables = tables_of(setup)
        self._value, self._faction = tables.value, tables.faction
        # a card's worth to its taker, turned round where the fewest win (PowerModel.sign): a playout of such a
        # game sheds points instead of taking them
        self._survivors = self.model.survivors
        # each Faction's cards that have a value (what a lead of that Faction is answered with)
        valued = [c for c, v in enumerate(self._value) if v is not None]
        self._valued_cards = {f: frozenset(c for c in valued if self._faction[c] == f) for f in set(self._faction)}
        self._profiles: dict[tuple, OnWin] = {}
        self._sites: dict[tuple, object] = {}
        # what depends on the Factions and variants in play, for those of `_in_play`
        self._in_play: list | None = None
        self._by_led: dict[str, tuple] = {}  # Faction led -> (its OnWin, its fast worth or None)
        self._site_of: dict[tuple, object] = {}  # (prompt, Faction led) -> _site's answer
        self._mid: dict[str, float] = {}
        for faction, ids in setup.faction_cards.items():
            values = [self.cards[c].value for c in ids if self.cards[c].value is not None]
            self._mid[faction] = (min(values) + max(values)) / 2 if values else 0.0

    def _same_factions(self, game: Game) -> None:
        """Forget what depended on the Factions in play if the game's are not those it was worked out for."""
        if game.factions != self._in_play:
            self._in_play = [list(pair) for pair in game.factions]
            self._by_led = {}
            self._site_of = {}

    # --- what winning a trick is worth
    def profile(self, game: Game, faction: str | None) -> OnWin:
        if faction is None:
            return _KEEP_ALL
        return self._led(game, faction)[0]

    def _led(self, game: Game, faction: str) -> tuple:
        """(OnWin, fast, general) of a Faction led, as winner_worth reads them.

        `fast` = (the trick's fate, the Encounter card's fate, the bonus) when winning only keeps
        or sends the trick and the Encounter card whole (no deal, no filter), else None; then
        `general` holds the deals and filtered moves with, for each, which cards its `where`
        conditions let through (a function card -> bool) and the sort keys of a deal's order,
        then the sheds' bonuses.
        """
        self._same_factions(game)
        return self._by_led.get(faction) or self._read_led(game, faction)

    def _read_led(self, game: Game, faction: str) -> tuple:
        """_led's answer read for the first time since the Factions in play were checked (by the caller)."""
        key = (faction, game.variant_of(faction))
        profile = self._profiles.get(key)
        if profile is None:
            profile = self.model.on_win({"factions": [{"faction": f, "variant": v} for f, v in game.factions]},
                                        faction)
            self._profiles[key] = profile
        got = self._by_led[faction] = _read_profile(profile, self.cards, faction)
        return got

    def winner_worth(self, game: Game, trick_cards: list[int], encounter: int | None, led: str | None) -> float:
        profile, fast, general = _KEEP_ALL_READ if led is None else self._led(game, led)
        survivors = self._survivors
        if fast is not None:  # (the sums are of whole numbers: any order gives the same total)
            trick, enc, bonus = fast
            worth = 0.0 + _fate(sum(map(survivors.__getitem__, trick_cards)), trick)
            if encounter is not None:
                worth += _fate(survivors[encounter], enc)
            return worth + bonus
        deals, partial, bonuses = general
        worth_of = survivors.__getitem__
        remaining = list(trick_cards)
        worth = 0.0
        for passes, sorts in deals:
            dealt = list(filter(passes, remaining))
            if not dealt:
                continue
            remaining = [c for c in remaining if c not in dealt]
            for keys, reverse in sorts:
                dealt.sort(key=keys.__getitem__, reverse=reverse)
            worth += sum(map(worth_of, dealt[::game.n]))
        for passes, dest in partial:
            moved = list(filter(passes, remaining))
            remaining = [c for c in remaining if c not in moved]
            worth += _fate(sum(map(worth_of, moved)), dest)
        worth += _fate(sum(map(worth_of, remaining)), profile.trick)
        if encounter is not None:
            worth += _fate(survivors[encounter], profile.encounter)
        for bonus in bonuses:
            worth += bonus
        return worth

    # --- decisions
    def __call__(self, game: Game, decision: Decision) -> int:
        kind = decision.kind
        if kind == "follow":
            return self._follow(game, decision)
        if kind == "lead":
            return self._lead(game, decision)
        if kind == "transfer":
            survivors, options = self._survivors, decision.options
            return _pick(self.rng, range(len(options)), [survivors[o[0]] for o in options], highest=False)
        if kind in ("choose", "ask"):
            return self._choose(game, decision)
        return randbelow(self.rng, len(decision.options))

    def chooser(self, game: Game):
        """`decision -> index` for `game.play`: the policy on this game (one option: 0, no draw)."""
        follow, lead, choose_in_power, call = self._follow, self._lead, self._choose, self.__call__

        def choose(decision: Decision) -> int:
            if len(decision.options) == 1:
                return 0
            kind = decision.kind
            if kind == "follow":
                return follow(game, decision)
            if kind == "lead":
                return lead(game, decision)
            if kind == "choose" or kind == "ask":
                return choose_in_power(game, decision)
            return call(game, decision)

        return choose

    def _follow(self, game: Game, decision: Decision) -> int:
        options = decision.options
        value, faction, survivors = self._value, self._faction, self._survivors
        trick = game.trick
        led, high = trick.led, trick.side == "+"
        best = game._winning_play()
        best_value = value[best[1]] if best is not None else None
        sign = 1 if high else -1
        # One pass sorts the cards into those that would take the lead and the others, and keeps
        # the cheapest of the first and the best of the second to shed — each time the first
        # that min() would pick: the least value (times sign), and the fewest Survivors then the
        # highest value (times sign).
        beaters = []
        cheapest = cheapest_cost = None
        shed = shed_survivors = shed_cost = None
        for i, o in enumerate(options):
            card = o[0]
            v = value[card]
            if v is None:
                beats = False
            elif led is None:
                beats = not game.rules_of(card).never_leads
            elif faction[card] != led:
                beats = False
            else:
                beats = best_value is None or (v > best_value if high else v < best_value)
            if beats:
                beaters.append(i)
                cost = v * sign
                if cheapest is None or cost < cheapest_cost:
                    cheapest, cheapest_cost = i, cost
            else:
                s, cost = survivors[card], -(v or 0) * sign
                if shed is None or s < shed_survivors or (s == shed_survivors and cost < shed_cost):
                    shed, shed_survivors, shed_cost = i, s, cost
        if cheapest is not None:
            card = options[cheapest][0]
            new_led = led if led is not None else faction[card]
            table = [c for _, c, _ in trick.plays]
            table.append(card)
            if self.winner_worth(game, table, trick.encounter, new_led) > 0:
                return cheapest
        if shed is not None:
            return shed
        # every card would take the lead, and it is not worth having: give the most Survivors away
        return _pick(self.rng, beaters, [survivors[options[i][0]] for i in beaters], highest=True)

    def _lead(self, game: Game, decision: Decision) -> int:
        trick = game.trick
        rng = self.rng
        if trick.led is not None or rng.random() < self.explore:
            return self._lead_at_random(game, decision)
        prospects = self._prospects(game, decision.actor, trick.encounter)
        # a tie-break draw per option, in order (the scores draw nothing): the first best score wins
        draw = rng.random
        best_i, best_score = 0, -math.inf
        card_scored = got = None
        for i, o in enumerate(decision.options):
            card, side = o[0]
            if card != card_scored:  # (a card's sides come one after the other: each card is scored once)
                card_scored, got = card, prospects(card)
            score = (got[0] if side == "+" else got[1]) + draw() * 1e-3
            if score > best_score:
                best_i, best_score = i, score
        return best_i

    def _prospects(self, game: Game, me: int, encounter: int | None):
        """`card -> (its score led on +, on -)`, for a lead by `me` now.

        What the others hold: of each Faction led, the best values and the card each would add
        (_others, worked out for a Faction when the first of its cards is scored).
        """
        value, survivors, faction = self._value, self._survivors, self._faction
        holdings = self._holdings(game, me)
        self._same_factions(game)  # (for _others)
        worst: list[int | None] = [None] * len(holdings)  # each one's card of fewest Survivors, when needed
        others: dict[str, tuple] = {}
        rules_of = game.rules_of

        def prospects(card: int) -> tuple[float, float]:
            v = value[card]
            if v is None or rules_of(card).never_leads:
                return _CANNOT_LEAD
            f = faction[card]
            facts = others.get(f)
            if facts is None:
                facts = others[f] = self._others(game, f, holdings, worst, encounter)
            high, low, added, fixed = facts
            if fixed is not None:  # winner_worth's fast reading, with the others' cards summed once
                trick_fate, added_survivors, rest = fixed
                worth = 0.0 + _fate(survivors[card] + added_survivors, trick_fate) + rest
            else:
                worth = self.winner_worth(game, [card, *added], encounter, f)
            # beaten: somebody else takes it; shedding a costly card is welcome
            shed = -0.25 * worth - 0.5 * survivors[card]
            return shed if high > v else worth, shed if low < v else worth

        return prospects

    @staticmethod
    def _holdings(game: Game, me: int) -> list:
        """What each other Community that holds cards plays from: its hand and Transfer zone (Game.held, without
        a tuple made for each)."""
        zones = game.zones
        out = []
        for seat, (hand, received) in enumerate(zip(game.hand_keys, game.transfer_keys)):
            if seat != me:
                held = zones[hand]
                if zones[received]:
                    held = held + zones[received]
                if held:
                    out.append(held)
        return out

    def _others(self, game: Game, f: str, holdings: list, worst: list, encounter: int | None) -> tuple:
        """(highest value, lowest value, the card each other Community would add, fixed) of a Faction led.

        Each other Community adds the middle one, in the order held, of its cards of `f` with a
        value, or if it has none its card of fewest Survivors (the first, noted in `worst`).
        `fixed`, when winning a trick of `f` moves the trick and the Encounter card whole:
        (the trick's fate, the added cards' Survivors, the rest of winner_worth: the Encounter
        card's fate then the bonus, added in winner_worth's order); else None.
        """
        value, survivors = self._value, self._survivors
        valued = self._valued_cards[f].__contains__
        values: list[int] = []  # the values of the others' cards of f
        added = []
        for k, held in enumerate(holdings):
            mine = list(filter(valued, held))
            if mine:
                values += map(value.__getitem__, mine)
                added.append(mine[len(mine) // 2])
            else:
                card = worst[k]
                if card is None:
                    card = worst[k] = min(held, key=survivors.__getitem__)
                added.append(card)
        # max(max(values), -10**9) and min(min(values), 10**9) (the bounds when nobody else holds a card of f)
        high, low = -10**9, 10**9
        if values:
            most, least = max(values), min(values)
            if most > high:
                high = most
            if least < low:
                low = least
        fixed = None
        fast = (self._by_led.get(f) or self._read_led(game, f))[1]  # (_prospects checked the Factions in play)
        if fast is not None:
            trick_fate, enc_fate, bonus = fast
            if encounter is None:
                fixed = (trick_fate, sum(map(survivors.__getitem__, added)), bonus)
            elif bonus == 0.0:
                fixed = (trick_fate, sum(map(survivors.__getitem__, added)), _fate(survivors[encounter], enc_fate))
        return high, low, added, fixed

    def _lead_at_random(self, game: Game, decision: Decision) -> int:
        options = decision.options
        i = randbelow(self.rng, len(options))
        card, side = options[i][0]
        v = self._value[card]
        if v is None:
            return i
        f = self._faction[card]
        wins_high = v >= self._mid.get(f, v)
        worth = self.winner_worth(game, [card], game.trick.encounter, game.trick.led or f)
        want = "+" if (worth > 0) == wins_high else "-"
        for j, o in enumerate(options):
            if o[0][0] == card and o[0][1] == want:
                return j
        return i

    def _site(self, game: Game, decision: Decision):
        led = game.trick.led if game.trick is not None else None
        self._same_factions(game)
        fast_key = (decision.prompt, led)
        if fast_key in self._site_of:
            return self._site_of[fast_key]
        key = (decision.prompt.split(" — ")[0], led, tuple(tuple(f) for f in game.factions))
        if key not in self._sites:
            obs = {"trick": {"led": led}, "factions": [{"faction": f, "variant": v} for f, v in game.factions],
                   "always": list(self.setup.always)}
            sites = self.model.choice_sites(obs, decision)
            if not sites:
                self._sites[key] = None
            else:
                site = sites[0]
                var = site.ins.get("name")
                uses = GreedyAgent._uses(site, var)
                direction = "away"
                for st in uses:
                    if st.get("node") != "Move":
                        continue
                    dest = _dest_class(st["dest"], site.bindings)
                    owner = st["dest"].get("owner")
                    if owner is not None and owner == site.ins.get("chooser"):
                        dest = ME
                    direction = "keep" if dest == ME else "away"
                # each use with the variables its destination names (read once)
                uses = [(st, _names(st["dest"].get("owner")) if st.get("node") == "Move" and st["dest"].get("owner")
                         else set()) for st in uses]
                self._sites[key] = (site, uses, direction)
        got = self._site_of[fast_key] = self._sites[key]
        return got

    def _standing(self, game: Game, seat: int) -> int:
        zone = game.zone("expedition", seat)
        return self.model.sign * game.population[seat] + sum(map(self._survivors.__getitem__, zone))

    def _value_of(self, game: Game, node: dict) -> float | None:
        """The Survivors of the cards a statement's card expression names, read from the running power."""
        frame = game.frames[0] if game.frames else None
        if frame is None:
            return None
        items = [node["left"], node["right"]] if node.get("node") == "Arith" else [node]
        cards, count = self.cards, len(self.cards)
        total = 0.0
        for item in items:
            base, conds = _unwrap(item)
            if base.get("node") != "NameRef":
                return None
            name = base.get("name")
            if name == "trick":
                ids = list(frame.trick)
            elif name == "encounter":
                ids = list(frame.encounter)
            elif name in frame.env:
                value = frame.env[name]
                ids = list(value) if isinstance(value, tuple) else [value]
            else:
                return None
            ids = [c for c in ids if isinstance(c, int) and 0 <= c < count]
            if conds:  # (no condition: every card matches)
                led = frame.led
                ids = [c for c in ids if matches(conds, cards[c], led)]
            total += sum(map(self._survivors.__getitem__, ids))
        return total

    def _choose(self, game: Game, decision: Decision) -> int:
        options = decision.options
        values = [o[0] for o in options]
        if decision.kind == "ask":
            return next((i for i, v in enumerate(values) if v is True), 0)
        info = self._site(game, decision)
        rng = self.rng
        if info is None:
            return randbelow(rng, len(options))
        site, uses, direction = info
        element = site.ins.get("element")
        var = site.ins.get("name")
        actor = decision.actor
        stop, cand = _stop_and_candidates(values)
        if element == "Card":
            survivors = self._survivors
            worth = [survivors[values[i]] for i in cand]
            if direction == "keep":
                return _pick(rng, cand, worth, highest=True)
            i = _pick(rng, cand, worth, highest=False)
            if stop is not None and survivors[values[i]] >= 0:
                return stop
            return i
        if element == "Community":
            others = [i for i in cand if values[i] != actor]
            mine = next((i for i in cand if values[i] == actor), None)
            for st, owner_names in uses:
                node = st.get("node")
                if node == "NextLeader":
                    return mine if mine is not None else choice(rng, cand)
                if node == "Move":
                    if var not in owner_names:
                        break
                    worth = self._value_of(game, st["cards"])
                    if worth is None:
                        break
                    if worth >= 0 and mine is not None:
                        return mine
                    pool = others or cand
                    standings = [self._standing(game, values[i]) for i in pool]
                    return _pick(rng, pool, standings, highest=worth < 0)
            return choice(rng, cand)
        return choice(rng, cand)


def _pick(rng: random.Random, candidates, keys, highest: bool) -> int:
    """The candidate of the highest (or lowest) key, ties broken at random.

    Exactly `max(candidates, key=lambda i: (key of i, rng.random()))` (or min): a draw per
    candidate, in order, and the first best wins — without a call and a tuple per candidate.
    `keys`: the key of each candidate, in the same order.
    """
    draw = rng.random
    best = best_key = best_draw = None
    for i, key in zip(candidates, keys):
        r = draw()
        if best is None:
            better = True
        elif highest:
            better = key > best_key or (key == best_key and r > best_draw)
        else:
            better = key < best_key or (key == best_key and r < best_draw)
        if better:
            best, best_key, best_draw = i, key, r
    return best


def _stop_and_candidates(values: list) -> tuple[int | None, list[int]]:
    """(the first option that stops an "up to" choice or None, the indices of the others)."""
    if vm.STOP not in values:  # (most choices cannot stop)
        return None, list(range(len(values)))
    stop, cand = None, []
    for i, v in enumerate(values):
        if v == vm.STOP:
            if stop is None:
                stop = i
        else:
            cand.append(i)
    return stop, cand


_CANNOT_LEAD = (-0.5, -0.5)  # the lead scores (on +, on -) of a card without a value or that never leads


def _fate(worth: float, dest: str) -> float:
    if dest == ME:
        return worth
    if dest == CHOICE:
        return max(worth, 0.0)
    return 0.0


def _read_profile(profile: OnWin, cards, led: str) -> tuple:
    """(profile, fast, general) for PlayoutPolicy.winner_worth: see PlayoutPolicy._led."""
    # the sheds' bonus, one term each (winner_worth adds them last, in order)
    bonuses = [2.0 * shed.count for shed in profile.sheds
               if shed.source in ("expedition", "trick") and not shed.mandatory]
    if not profile.deals and not profile.partial:
        return profile, (profile.trick, profile.encounter, sum(bonuses, 0.0)), None
    deals = [(_passes(conds, cards, led),
              [(tuple(getattr(spec, attr, 0) or 0 for spec in cards), direction == "highest")
               for attr, direction in reversed(order)])
             for conds, order in profile.deals]
    partial = [(_passes(conds, cards, led), dest) for what, conds, dest in profile.partial if what == "trick"]
    return profile, None, (deals, partial, bonuses)


def _matching(conds: list, cards, led: str) -> list:
    """Whether each card passes `where` conditions (`matches`); None where judging it raised (judged again at use)."""
    out: list = []
    for spec in cards:
        try:
            out.append(matches(conds, spec, led))
        except Exception:  # noqa: BLE001 - raised again, as before, if that card is ever judged
            out.append(None)
    return out


def _passes(conds: list, cards, led: str):
    """`card -> whether it passes the conditions`, judged once per card (a card whose judging raised: at each use)."""
    match = _matching(conds, cards, led)
    if None not in match:
        return match.__getitem__

    def passes(card: int) -> bool:
        got = match[card]
        return matches(conds, cards[card], led) if got is None else got

    return passes


_KEEP_ALL = OnWin()
_KEEP_ALL_READ = _read_profile(_KEEP_ALL, (), "")  # winning keeps the trick and the Encounter card


__all__ = ["ISMCTSAgent", "Node", "move_key", "PlayoutPolicy"]
