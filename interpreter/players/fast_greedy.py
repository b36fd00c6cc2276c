"""FastGreedyAgent: GreedyAgent's rules of thumb at a fraction of the cost (the `greedy` bot).

It scores leads, follows and Transfer passes the way GreedyAgent does (the same
chance of winning, the same reading of each Faction's `on win` power, the same
worth kept in hand: players/greedy.py), but values cards far more cheaply
(docs/bots.md, "FastGreedyAgent"):

- no guess of the face-down Expedition cards: only the cards known to lie there
  (face up, or seen going there) count, so nothing is drawn at random per decision;
- the end-of-round hooks are not run on a stand-in of the table for every card
  and group of cards. A hook's worth is read from a table per Faction: what the
  hooks give a Community whose Expedition zone holds c cards of that Faction and
  nothing else, for each c, made once per set-up and kept for the process
  (`_HookTable`). A card of Faction f then adds H_f(c+1) - H_f(c) to its
  Survivors, c being the cards of f known in one's zone; a group, the change of
  each of its Factions' counts (so thresholds still show). This is exact for
  powers that count one Faction in one's own zone (every bundled box), an
  estimate for the others (those that compare Communities, or read values);
- a Faction's mean worth is that of all its unseen cards (no sample drawn).

Leads and follows are scored from per-process tables by players/lean_play.py
where those tables hold (no teams, trumps, `rule counts as` or secret Transfer
zones: the bundled Happy DayZ boxes, and a classic game without trumps or
teams): the same rules of thumb, a few microseconds an option; elsewhere by
`_play_scores` below.

Every other decision (choices inside powers, Faction changes, power
replacement) is GreedyAgent's; a decision kind it does not know gets a random
legal option from the agent's own seeded source.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Mapping

from happydayz.kernel.determinize import expeditions_seen, known_cards, trick_voids
from happydayz.kernel.observation import has_known
from happydayz.kernel.game import Decision
from happydayz.kernel.setup import GameSetup
from happydayz.language import vm
from happydayz.players import contract, lean_play
from happydayz.players.agents import card_ids
from happydayz.players.greedy import (CHOICE, ME, OVERTAKE, Estimate, GreedyAgent, Item, OnWin, PowerModel, _best_play,
                                      _finish_hook, _readable, _Probe, _run_hook, overtakes)

#: Decision kinds GreedyAgent answers by its own rules; any other kind gets a random legal option.
KNOWN_KINDS = frozenset({"transfer", "lead", "follow", "choose", "ask", "faction_change", "replace_power",
                         "bid"})  # a bid: the reference's _bid, which reads the hand alone


class _HookTable:
    """What the end-of-round hooks give one Community for c cards of one Faction in its zone, c = 0, 1, ...

    Run once per (Faction, c) on a stand-in table holding those cards in that
    Community's Expedition zone and nothing else (the first c cards of the
    Faction in the round's deck); kept for the process, per set-up, hooks in
    play, players and seat. Card powers: each card's own hook, run with that
    card alone.
    """

    def __init__(self, model: PowerModel, obs: Mapping, in_play, seat: int):
        self.setup = model.setup
        self.hooks = in_play.hooks
        self.card_hooks = in_play.card_hooks
        self.seat = seat
        self.sign = model.sign  # (a hook's gain counts against where the fewest win: PowerModel.sign)
        cards = model.cards
        self.by_faction: dict[str, list[int]] = {}
        for c in in_play.cards:
            self.by_faction.setdefault(cards[c].faction, []).append(c)
        # the stand-in reads the players, populations, round and state of the first observation it served
        self._probe = _Probe(self.setup, obs, in_play.factions, {})
        self._key = f"expedition:{seat}"
        self._h: dict[tuple[str, int], float] = {}
        self._own: dict[int, float] = {}

    def _run(self, zone: list[int]) -> float:
        probe = self._probe
        probe.reset()
        probe.zones.clear()
        probe.zones[self._key] = zone
        seat = self.seat
        for key, program in self.hooks:
            frame = vm.frame(key, seat, None)
            request = vm.run(probe, frame, program)
            if request is not None:
                _finish_hook(probe, frame, program, request)
        return float(self.sign * probe.scores[seat])

    def h(self, faction: str, count: int) -> float:
        """The hooks' score for `count` cards of `faction` (clamped to the Faction's cards in play)."""
        group = self.by_faction.get(faction, ())
        count = max(0, min(count, len(group)))
        got = self._h.get((faction, count))
        if got is None:
            got = self._h[faction, count] = self._run(list(group[:count])) if self.hooks else 0.0
        return got

    def own(self, card: int) -> float:
        """What a card's own end-of-round power gives for it alone (0 without one)."""
        got = self._own.get(card)
        if got is None:
            hook = self.card_hooks.get(card)
            got = 0.0
            if hook is not None:
                probe = self._probe
                probe.reset()
                probe.zones.clear()
                probe.zones[self._key] = [card]
                _run_hook(probe, hook[0], hook[1], self.seat, card)
                got = float(self.sign * probe.scores[self.seat])
            self._own[card] = got
        return got


_TABLES: dict[tuple, _HookTable] = {}


def hook_table(model: PowerModel, obs: Mapping, in_play, seat: int) -> _HookTable:
    key = (id(model), id(in_play), obs["players"], seat)
    got = _TABLES.get(key)
    if got is None or got.setup is not model.setup:
        got = _TABLES[key] = _HookTable(model, obs, in_play, seat)
    return got


class FastEstimate(Estimate):
    """Estimate's facts for one decision, with the card worths of the hook table (see the module's docstring)."""

    def __init__(self, model: PowerModel, obs: Mapping, rng, samples: int = 1):
        self.model = model
        self.setup = model.setup
        self.cards = cards = model.cards
        self.obs = obs
        self.me = me = obs["seat"]
        self.n = n = obs["players"]
        self.rng = rng
        self.sign = model.sign
        self.team = model.team_of.get(me) or frozenset((me,))  # (Estimate's: my team's seats, the other teams)
        self.rivals = len(model.teams) - 1 if model.teams else n - 1
        in_play = self.in_play = model.in_play(obs)
        self.hand = card_ids(obs, "hand")
        self.transfer = card_ids(obs, "transfer")
        self.encounter = card_ids(obs, "encounter")
        self.hooks = in_play.hooks
        self.card_hooks = in_play.card_hooks
        self.factions = in_play.factions
        self.hooked = hooked = bool(self.hooks or self.card_hooks)
        if in_play.face_up:
            exp_seen = expeditions_seen(obs)
            face_up = set(card_ids(obs, "expedition_face_up")[me])
        else:  # no Faction in play lies face up: the known cards are all that is seen of the zones
            known = card_ids(obs, "expedition_known") if has_known(obs) else None
            exp_seen = known if known else [[] for _ in range(self.n)]
            face_up = ()
        seen = known_cards(obs, exp_seen)
        self.unseen = [c for c in in_play.cards if c not in seen]
        self._m: dict[int, float] = {}
        self._fmean: dict[str, float] = {}
        self._typical: dict[tuple, Item] = {}
        self._memo: dict[tuple, object] = {}
        self._items: dict[int, Item] = {}
        self._rules: dict[int, object] = {}
        self._survivors_of = model.survivors.__getitem__
        mine = exp_seen[me]
        self.my_pile = [c for c in mine if c not in face_up]
        self._mine_set = set(mine)
        counts: dict[str, int] = {}
        for c in mine:
            f = cards[c].faction
            counts[f] = counts.get(f, 0) + 1
        self._counts = counts
        self._gains: dict[tuple, float] = {}
        self._table = hook_table(model, obs, in_play, me) if hooked else None

    def _delta(self, changes: dict[str, int]) -> float:
        """The hooks' change for my zone's Faction counts changing by `changes`."""
        table, counts = self._table, self._counts
        total = 0.0
        for f, k in changes.items():
            if k:
                c = counts.get(f, 0)
                total += table.h(f, c + k) - table.h(f, c)
        return total

    def _gain(self, faction: str, inside: bool) -> float:
        """The hooks' worth of one card of `faction` to my zone: adding it (or, inside, having it)."""
        key = (faction, inside)
        got = self._gains.get(key)
        if got is None:
            table, c = self._table, self._counts.get(faction, 0)
            got = self._gains[key] = table.h(faction, c) - table.h(faction, c - 1) if inside else \
                table.h(faction, c + 1) - table.h(faction, c)
        return got

    def m(self, card: int) -> float:
        got = self._m.get(card)
        if got is None:
            got = float(self._survivors_of(card))
            if self.hooked:
                if self.hooks:
                    got += self._gain(self.cards[card].faction, card in self._mine_set)
                if self.card_hooks:
                    got += self._table.own(card)
            self._m[card] = got
        return got

    def faction_mean(self, faction: str | None) -> float:
        """The mean worth of a Faction's unseen cards (of all of them for None): their mean Survivors plus the
        hooks' worth of one more card of the Faction (the same for each), every card counted, none sampled."""
        key = faction or "*"
        got = self._fmean.get(key)
        if got is None:
            pool = self.unseen if faction is None else self.unseen_by_faction.get(faction, [])
            if not pool:
                got = 0.0
            elif not self.hooked:
                got = sum(map(self._survivors_of, pool)) / len(pool)
            elif self.card_hooks:
                got = sum(map(self.m, pool)) / len(pool)
            elif faction is None:
                got = sum(len(group) * self.faction_mean(f) for f, group in self.unseen_by_faction.items()) / len(pool)
            else:
                got = sum(map(self._survivors_of, pool)) / len(pool) + self._gain(faction, False)
            self._fmean[key] = got
        return got

    def set_worth(self, gained: list[int], lost: list[int] = ()) -> float:
        if not gained and not lost:
            return 0.0
        survivors_of = self._survivors_of
        worth = float(sum(map(survivors_of, gained)) - sum(map(survivors_of, lost)))
        if not self.hooked:
            return worth
        table = self._table
        if self.card_hooks:
            worth += sum(map(table.own, gained)) - sum(map(table.own, lost))
        if table.hooks:
            cards = self.cards
            changes: dict[str, int] = {}
            for c in gained:
                f = cards[c].faction
                changes[f] = changes.get(f, 0) + 1
            for c in lost:
                f = cards[c].faction
                changes[f] = changes.get(f, 0) - 1
            worth += self._delta(changes)
        return worth


_NO_POWER = OnWin()  # a trump that blocks the led Faction's power: the trick is simply won


class FastGreedyAgent(GreedyAgent):
    """GreedyAgent's play with FastEstimate's card worths: `greedy` (GreedyAgent is `greedy-reference`)."""

    name = "greedy"

    def __init__(self, seed: int | str = 0, setup: GameSetup | None = None):
        super().__init__(seed, setup, samples=1)

    def __repr__(self) -> str:
        return f"FastGreedyAgent(seed={self.seed!r})"

    def _estimate(self, observation: Mapping) -> Estimate:
        return FastEstimate(self.model, observation, self.rng)

    def _play_scores(self, est: Estimate, decision: Decision, lead: bool) -> list[float]:
        """GreedyAgent's scores of a lead or follow (_play_scores, _score_play), worked out in one loop.

        What does not depend on the card played — the table's worth and best card, each Faction led's likely
        additions and on-win summary — is worked out once per decision. A power that deals, moves and sheds nothing
        is valued from sums, as GreedyAgent's _plain_utility does; any other by GreedyAgent's _utility."""
        obs = est.obs
        me, n = est.me, est.n
        cards = est.cards
        trick = obs["trick"]
        held = est.hand + est.transfer[me]
        plays0 = [(p["seat"], p["id"], bool(p.get("trump"))) for p in trick["plays"]]
        leader, led0, side0 = trick["leader"], trick["led"], trick["side"]
        voids = trick_voids(self.setup, obs)
        for seat, factions in enumerate(obs.get("voids", ())):
            voids.setdefault(seat, set()).update(factions)
        played = {p[0] for p in plays0} | {me}
        sizes = est.hand_sizes
        rest = [seat for seat in ((leader + step) % n for step in range(1, n))
                if seat not in played and (sizes[seat] + len(est.transfer[seat])) > 0]
        m, survivors = est.m, est._survivors_of
        encounter = est.encounter
        enc_item = est.item(encounter) if encounter is not None else None
        items0 = [est.item(c) for _, c, _ in plays0]
        table_cards = [c for _, c, _ in plays0]
        table_m = sum(x.m for x in items0)
        table_s = float(sum(map(survivors, table_cards)))
        enc_m = enc_item.m if enc_item else 0.0
        share = 1.0 / max(n - 1, 1)
        rival_share = 1.0 / max(est.rivals, 1)  # (the others' gain is shared among the other teams)
        team = est.team  # my team's seats: my partner's winning card wins for me too
        per_led: dict = {}
        memo = est._memo
        hand_worth = self.hand_worth
        beats = self._beats
        counts_as = bool(self.setup.game_counts_as)
        gain = contract.gain(self.model, obs, me, len(held))  # (0 where the score does not count tricks)
        scores = []
        for option in decision.options:
            card, side = option.value if lead else (option.value, side0)
            rules = est.rules(card)
            led = led0
            counted = None
            if counts_as:  # (a game with game-wide `rule counts as`: the Factions cards count as)
                counted = self._counted(est, plays0 + [(me, card, False)], led0, side, leader)
            if led is None and not rules.never_leads:
                led = cards[card].faction if counted is None else counted[card][0]
            trump = rules.trumps is not None and self._trumps(est, card, led, side, leader, held,
                                                               None if counted is None else counted[card][0])
            best = _best_play(cards, plays0 + [(me, card, trump)], led, side == "+", counted)
            facts = per_led.get(led)
            if facts is None:
                adds = self._additions(est, led, rest, voids)
                profile = OnWin() if led is None else self.model.on_win(obs, led)
                facts = per_led[led] = (adds, profile, sum(a.m for _, a in adds), sum(a.survivors for _, a in adds))
            adds, profile, add_m, add_s = facts
            if trump and rules.blocks_led_power:
                profile = _NO_POWER
            card_m = m(card)
            contest = led is not None and best is not None and best[0] in team
            p_win = 1.0 if contest else 0.0
            likely = best[0] if best is not None and best[0] not in team else (rest[0] if rest else leader)
            if contest:
                worth = table_m + card_m + enc_m
                biggest = 0.0
                bval = None if best[2] else cards[best[1]].value if counted is None else counted[best[1]][1]
                for seat, add in adds:
                    worth += add.m
                    if bval is None or seat in team:  # (my partner beating the best card still wins for my team)
                        continue
                    beat = memo.get(("beat", led, bval, side, seat))
                    if beat is None:
                        beat = memo["beat", led, bval, side, seat] = beats(est, led, bval, side, seat, voids)
                    p_beat = beat if worth > 0 else 0.3 * beat
                    if p_beat > biggest:
                        biggest, likely = p_beat, seat
                    p_win *= 1.0 - p_beat
            u_win = u_lose = 0.0
            if not profile.deals and not profile.partial and not profile.sheds:
                trick_m = table_m + card_m + add_m
                trick_s = table_s + survivors(card) + add_s
                if p_win > 0:
                    u_win = self._plain(est, profile, True, table_cards + [card], add_m, trick_m, trick_s, enc_item,
                                        share, rival_share)
                if p_win < 1:
                    u_lose = self._plain(est, profile, False, (), add_m, trick_m, trick_s, enc_item, share,
                                         rival_share)
            else:  # GreedyAgent's _utility of the whole trick
                items = items0 + [est.item(card)] + [a for _, a in adds]
                if p_win > 0:
                    u_win = self._utility_of(est, profile, items, enc_item, me)
                if p_win < 1:
                    u_lose = self._utility_of(est, profile, items, enc_item, likely)
            score = p_win * (u_win + gain) + (1 - p_win) * u_lose - hand_worth(est, card)
            if len(team) > 1 and best is not None and best[0] == me and overtakes(cards, plays0, led0, side, team,
                                                                                   rest, counted):
                score -= OVERTAKE  # (GreedyAgent's: my partner's card wins already, no rival plays after me)
            scores.append(score)
        return scores

    # --- a contract: the score counts tricks (players/contract.py)
    def _choose(self, est: Estimate, decision: Decision) -> int:
        values = [o.value for o in decision.options]
        counter = contract.number_counter(self.model, decision.prompt.split(" — ")[0]) \
            if values and all(type(v) is int for v in values) else None
        if counter is None or not contract.reads_tricks(self.model, est.obs):
            return super()._choose(est, decision)
        # a number kept in a counter the score reads (a bid): the best at the tricks my hand should take — its
        # share of the strength of every hand (my partners' tricks at the mean share)
        obs, me = est.obs, est.me
        left = len(est.hand) + len(est.transfer[me])
        strength = self._strength(est)
        mine = sum(map(strength, est.hand))
        unseen = est.unseen
        others = (est.n - 1) * left * (sum(map(strength, unseen)) / len(unseen) if unseen else 0.0)
        share = mine / (mine + others) if mine + others > 0 else 1.0 / est.n
        tricks = int(left * share + 0.5) + (len(est.team) - 1) * left // est.n
        return contract.best_number(self.model, obs, me, values, counter, left, tricks)

    def _strength(self, est: Estimate):
        """card -> its strength in taking tricks: its value's place among its Faction's, to the power players - 1
        (it must top every other player's), and 1 more for a card that cuts a lead of another Faction."""
        cards = est.cards
        high = "+" in self.setup.sides
        values: dict[str, list[int]] = {}
        for c in est.in_play.cards:
            if cards[c].value is not None:
                values.setdefault(cards[c].faction, []).append(cards[c].value)
        for vs in values.values():
            vs.sort()
        other = {f: next((g for g in values if g != f), None) for f in values}

        def strength(card: int) -> float:
            f, v = cards[card].faction, cards[card].value
            if v is None:
                return 0.0
            vs = values[f]
            place = (bisect_left(vs, v) if high else len(vs) - bisect_right(vs, v)) / max(len(vs) - 1, 1)
            cuts = other[f] is not None and self._trumps(est, card, other[f], "+" if high else "-", est.me, [card])
            return place ** (est.n - 1) + (1.0 if cuts else 0.0)
        return strength

    @staticmethod
    def _plain(est, profile: OnWin, i_win: bool, real: list, add_m: float, trick_m: float, trick_s: float,
               enc: Item | None, share: float, rival_share: float | None = None) -> float:
        """_plain_utility from sums: the trick (real cards, the others' likely additions) and the Encounter card."""
        mine = others = 0.0
        gained: list[int] = []
        gained_m = 0.0
        dest = profile.trick
        if dest != "removed":
            if i_win:
                if dest == ME or (dest == CHOICE and trick_m >= 0):
                    gained.extend(real)
                    gained_m = add_m
                else:
                    others += trick_s
            elif dest == ME or (dest == CHOICE and trick_s >= 0):
                others += trick_s
            else:
                mine += share * trick_m
                others += (1 - share) * trick_s
        dest = profile.encounter
        if enc is not None and dest != "removed":
            if i_win:
                if dest == ME or (dest == CHOICE and enc.m >= 0):
                    gained.append(enc.card)
                else:
                    others += enc.survivors
            elif dest == ME or (dest == CHOICE and enc.survivors >= 0):
                others += enc.survivors
            else:
                mine += share * enc.m
                others += (1 - share) * enc.survivors
        if i_win:
            mine += 0.3 * profile.draws + (0.5 if profile.control else 0.0) + profile.score
            mine += est.set_worth(gained) + gained_m
        return mine - others * (share if rival_share is None else rival_share)

    # -------------------------------------------------------------- transfer
    def _transfer(self, est: Estimate, decision: Decision) -> int:
        scores = [self.pass_worth(est, o.value) + self.rng.random() * 1e-6 for o in decision.options]
        return min(range(len(scores)), key=scores.__getitem__)

    def option_scores(self, observation: dict, decision: Decision) -> list[float] | None:
        if decision.kind != "transfer" or self.model is None:
            return super().option_scores(observation, decision)
        est = self._estimate(_readable(observation))
        return [-self.pass_worth(est, o.value) for o in decision.options]

    def pass_worth(self, est: Estimate, card: int) -> float:
        """What keeping `card` rather than passing it is worth.

        Where the most Survivors win, GreedyAgent's hand worth. Where the fewest win, a card is the trick it
        will take: its chance of winning one (its value's place in its Faction, on the sides a leader may choose)
        times what such a trick brings — the card itself and the others' cards, mostly of its Faction. So a high
        card of a costly Faction goes first, not its lowest that wins nothing (GreedyAgent passes any costly card
        before any other). See docs/bots.md, "Passing where the fewest win".
        """
        spec = est.cards[card]
        spread = self.model.spread(spec.faction)
        if self.model.sign > 0 or spec.value is None or spread is None:
            return self.hand_worth(est, card)
        mid, half = spread
        place = (spec.value - mid) / half  # -1 (its lowest) .. 1 (its highest)
        sides = self.setup.sides
        if len(sides) != 1:  # a leader picks high or low: either end wins tricks
            win = abs(place)
        else:
            win = 0.5 + 0.5 * (place if sides[0] == "+" else -place)
        trick = (est.n - 1) * (0.75 * est.faction_mean(spec.faction) + 0.25 * est.faction_mean(None))
        return win * (est.m(card) + trick)

    def decide(self, observation: dict, decision: Decision) -> int:
        kind = decision.kind
        if self.model is not None and len(decision.options) > 1:
            if kind not in KNOWN_KINDS:
                return self.rng.randrange(len(decision.options))  # a kind the rules of thumb know nothing of
            if kind == "lead" or kind == "follow":
                obs = _readable(observation)
                S = lean_play.statics(self.model, obs, obs["seat"], hook_table)
                if S.ok:  # (lean_play: the same scores from per-process tables)
                    self._chosen = []
                    encounter = card_ids(obs, "encounter")
                    if encounter is not None:
                        self._encounter = encounter
                    scores = lean_play.scores(S, obs, decision.options, kind == "lead")
                    top = max(scores)
                    best = [i for i, x in enumerate(scores) if x == top]
                    return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]  # (ties: at random)
        return super().decide(observation, decision)


__all__ = ["FastGreedyAgent", "FastEstimate", "KNOWN_KINDS", "hook_table"]
