"""The `greedy` bot's leads and follows, scored from per-process tables: a few microseconds an option.

FastGreedyAgent (players/fast_greedy.py) scores a lead or a follow by GreedyAgent's rules of thumb (the
chance that the card wins, the trick's likely content read through the Faction led's `on win` summary, the
worth of the card kept in hand), with card worths from the hook table. This module computes the same scores
(docs/bots.md, "FastGreedyAgent") with what can be known before the game kept per process
(`statics`: for each set-up, Factions in play, players and seat, the cards' Factions, values, worths, rules
of thumb and sort orders, each Faction's on-win summary, the filters of its deals and moves judged card by
card) and, per decision, only the observation's keys it needs, read by their ids. A trick whose power deals,
moves or sheds is valued as GreedyAgent's `_utility` values it, by a copy of it that reads those tables.

A game with what these tables do not hold — teams, trumps, `rule counts as`, secret Transfer zones — is
left to FastGreedyAgent's general scoring (`statics(...).ok` is False).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Mapping

from happydayz.kernel.determinize import expeditions_seen, known_cards, trick_voids
from happydayz.kernel.observation import Observation, card_ids
from happydayz.players.greedy import (CHOICE, ME, OTHER, REMOVED, Item, OnWin, PowerModel, _p_none, matches)


class Statics:
    """What one seat's scoring reads that no decision changes, for one set-up and set of Factions in play."""

    def __init__(self, model: PowerModel, obs: Mapping, in_play, seat: int, hook_table):
        setup = model.setup
        cards = setup.cards
        self.model, self.setup, self.in_play, self.seat = model, setup, in_play, seat
        self.n = n = obs["players"]
        rules = {c: setup.rules(cards[c].faction, in_play.variants.get(cards[c].faction, "basic"))
                 for c in in_play.cards}
        self.ok = (not setup.game_counts_as and not model.teams and not setup.secret_transfer
                   and not setup.game_trumps and all(r.trumps is None for r in rules.values()))
        self.deck = in_play.cards
        size = len(cards)
        self.fac = [c.faction for c in cards]
        self.val = [c.value for c in cards]
        self.surv = model.survivors  # (signed: PowerModel.sign)
        self.never_leads = [False] * size
        self.keep = [0.0] * size  # the static part of GreedyAgent._hand_worth (a card whose worth is >= 0)
        self.valueless = [False] * size
        for c, r in rules.items():
            spec = cards[c]
            self.never_leads[c] = bool(r.never_leads)
            if spec.value is None:
                self.valueless[c] = True
                self.keep[c] = 2.0 if r.always_playable else 0.5
                continue
            spread = model.spread(spec.faction)
            extreme = abs(spec.value - spread[0]) / spread[1] if spread is not None else 0.0
            self.keep[c] = 0.3 * extreme + (1.0 if r.always_playable else 0.0)
        self.factions = in_play.factions
        self.of_faction: dict[str, list[int]] = {}
        for c in in_play.cards:
            self.of_faction.setdefault(cards[c].faction, []).append(c)
        # (the sort orders of Estimate._typical_card: by Survivors then value, ties in id order)
        worth = model.survivors
        self.typical_order = {f: sorted(group, key=lambda c: (worth[c], cards[c].value or 0))
                              for f, group in self.of_faction.items()}
        self.by_worth = sorted(in_play.cards, key=worth.__getitem__)
        self.profiles: dict[str, OnWin] = {}
        for f in self.factions:
            self.profiles[f] = model.on_win(obs, f)
        self.plain = {f: not p.deals and not p.partial and not p.sheds for f, p in self.profiles.items()}
        self.hooked = bool(in_play.hooks or in_play.card_hooks)
        self.card_hooks = bool(in_play.card_hooks)
        self.table = hook_table(model, obs, in_play, seat) if self.hooked else None
        self.own = [0.0] * size  # a card's own end-of-round power, for it alone
        if in_play.card_hooks:
            for c in in_play.cards:
                self.own[c] = self.table.own(c)
        self._passes: dict[tuple, bool] = {}

    def passes(self, conds: list, x: Item, led) -> bool:
        """matches(conds, x, led), kept for the process: it reads only the card's Faction, value, Survivors."""
        key = (id(conds), x.faction, x.value, x.survivors, led)
        got = self._passes.get(key)
        if got is None:
            got = self._passes[key] = matches(conds, x, led)
        return got


_STATICS: dict[tuple, Statics] = {}


def statics(model: PowerModel, obs: Mapping, in_play, seat: int, hook_table) -> Statics:
    key = (id(model), id(in_play), obs["players"], seat)
    got = _STATICS.get(key)
    if got is None or got.model is not model:
        got = _STATICS[key] = Statics(model, obs, in_play, seat, hook_table)
    return got


class Decision_:
    """One decision's facts (the lean Estimate): unseen cards by Faction, my zone's counts, the worths."""

    __slots__ = ("S", "obs", "me", "n", "unseen_n", "by_f", "sizes", "voids", "transfer", "counts", "mine",
                 "my_pile", "mine_set", "_m_add", "_fmean", "_mean_all", "_items", "_typ", "_vals", "_gain_in")

    def __init__(self, S: Statics, obs: Mapping, transfer, seen: set, mine: list[int], face_up):
        self.S, self.obs = S, obs
        self.me, self.n = S.seat, S.n
        by_f = {}
        total = 0
        for f, group in S.of_faction.items():
            u = [c for c in group if c not in seen]
            by_f[f] = u
            total += len(u)
        self.by_f, self.unseen_n = by_f, total
        self.transfer = transfer
        self.mine = mine
        self.mine_set = set(mine)
        self.my_pile = [c for c in mine if c not in face_up] if face_up else mine
        counts: dict[str, int] = {}
        if S.hooked:
            fac = S.fac
            for c in mine:
                f = fac[c]
                counts[f] = counts.get(f, 0) + 1
        self.counts = counts
        self._m_add: dict[str, float] = {}
        self._gain_in: dict[str, float] = {}
        self._fmean: dict[str, float] = {}
        self._mean_all = None
        self._items: dict[int, Item] = {}
        self._typ: dict = {}
        self._vals: dict = {}

    # --- worths (FastEstimate's)
    def gain(self, f: str) -> float:
        """The hooks' worth of one more card of Faction f in my zone."""
        got = self._m_add.get(f)
        if got is None:
            table, c = self.S.table, self.counts.get(f, 0)
            got = self._m_add[f] = table.h(f, c + 1) - table.h(f, c)
        return got

    def m(self, card: int) -> float:
        """A card's worth to me if it ends in my zone (a card not in it: hand, table, unseen)."""
        S = self.S
        if not S.hooked:
            return float(S.surv[card])
        got = float(S.surv[card])
        if S.table.hooks:
            if card in self.mine_set:
                f = S.fac[card]
                g = self._gain_in.get(f)
                if g is None:
                    table, c = S.table, self.counts.get(f, 0)
                    g = self._gain_in[f] = table.h(f, c) - table.h(f, c - 1)
                got += g
            else:
                got += self.gain(S.fac[card])
        return got + S.own[card]

    def fmean(self, f: str | None) -> float:
        """FastEstimate.faction_mean: the mean worth of a Faction's unseen cards (None: of all of them)."""
        if f is None:
            got = self._mean_all
            if got is None:
                got = self._mean_all = self._all_mean()
            return got
        got = self._fmean.get(f)
        if got is None:
            pool = self.by_f.get(f, ())
            S = self.S
            if not pool:
                got = 0.0
            elif S.card_hooks:
                got = sum(map(self.m, pool)) / len(pool)
            else:
                surv = S.surv
                got = sum([surv[c] for c in pool]) / len(pool)
                if S.hooked:
                    got += self.gain(f)
            self._fmean[f] = got
        return got

    def _all_mean(self) -> float:
        if not self.unseen_n:
            return 0.0
        S = self.S
        if S.hooked and not S.card_hooks:
            return sum(len(g) * self.fmean(f) for f, g in self.by_f.items() if g) / self.unseen_n
        if S.card_hooks:
            return sum(sum(map(self.m, g)) for g in self.by_f.values()) / self.unseen_n
        surv = S.surv
        return sum(sum([surv[c] for c in g]) for g in self.by_f.values()) / self.unseen_n

    def set_worth(self, gained: list[int], lost: list[int] = ()) -> float:
        """FastEstimate.set_worth: cards entering (and leaving) my zone together, thresholds counted."""
        if not gained and not lost:
            return 0.0
        S = self.S
        surv = S.surv
        worth = float(sum([surv[c] for c in gained]) - sum([surv[c] for c in lost]))
        if not S.hooked:
            return worth
        if S.card_hooks:
            own = S.own
            worth += sum([own[c] for c in gained]) - sum([own[c] for c in lost])
        table = S.table
        if table.hooks:
            fac = S.fac
            changes: dict[str, int] = {}
            for c in gained:
                f = fac[c]
                changes[f] = changes.get(f, 0) + 1
            for c in lost:
                f = fac[c]
                changes[f] = changes.get(f, 0) - 1
            counts, h = self.counts, table.h
            for f, k in changes.items():
                if k:
                    c = counts.get(f, 0)
                    worth += h(f, c + k) - h(f, c)
        return worth

    def item(self, card: int) -> Item:
        got = self._items.get(card)
        if got is None:
            S = self.S
            got = self._items[card] = Item(S.fac[card], S.val[card], float(S.surv[card]), self.m(card), card)
        return got

    def typical(self, led: str | None):
        """Estimate._typical_card's (Faction, value): the middle unseen card of `led` by Survivors then value, or
        for None the middle one of the worst third of the unseen cards."""
        if led in self._typ:
            return self._typ[led]
        S = self.S
        if led is not None:
            u = set(self.by_f.get(led, ()))
            pool = [c for c in S.typical_order.get(led, ()) if c in u]
        else:
            unseen = {c for g in self.by_f.values() for c in g}
            worst = [c for c in S.by_worth if c in unseen][:max(len(unseen) // 3, 1)]
            val, surv = S.val, S.surv
            pool = sorted(worst, key=lambda c: (surv[c], val[c] or 0))
        got = self._typ[led] = (S.fac[pool[len(pool) // 2]], S.val[pool[len(pool) // 2]]) if pool else (None, None)
        return got

    def values(self, led: str) -> list[int]:
        got = self._vals.get(led)
        if got is None:
            val = self.S.val
            got = self._vals[led] = sorted([val[c] for c in self.by_f.get(led, ()) if val[c] is not None])
        return got


def read(S: Statics, obs: Mapping) -> tuple:
    """(every card I see, my Expedition zone's known cards, my face-up ones there): the seat view's "seen" ids
    in one pass, or from any other observation as determinize reads them."""
    if isinstance(obs, Observation) and obs._data is None and obs._part is not None:
        return card_ids(obs, "seen")
    me = S.seat
    exp_seen = expeditions_seen(obs)
    return known_cards(obs, exp_seen), exp_seen[me], set(card_ids(obs, "expedition_face_up")[me])


def scores(S: Statics, obs: Mapping, options, lead: bool) -> list[float]:
    """FastGreedyAgent's score of each option of a lead or follow (higher is better)."""
    seen, mine, face_up = read(S, obs)
    transfer = card_ids(obs, "transfer")
    encounter = card_ids(obs, "encounter")
    D = Decision_(S, obs, transfer, seen, mine, face_up)
    me, n = S.seat, S.n
    fac, val, surv = S.fac, S.val, S.surv
    trick = obs["trick"]
    plays0 = [(p["seat"], p["id"]) for p in trick["plays"]]
    leader, led0, side0 = trick["leader"], trick["led"], trick["side"]
    voids = trick_voids(S.setup, obs) if plays0 else {}
    for seat, factions in enumerate(obs.get("voids", ())):
        if factions:
            voids.setdefault(seat, set()).update(factions)
    sizes = obs["hand_sizes"]
    played = {p[0] for p in plays0}
    played.add(me)
    rest = [seat for seat in ((leader + step) % n for step in range(1, n))
            if seat not in played and (sizes[seat] + len(transfer[seat])) > 0]
    m = D.m
    table_cards = [c for _, c in plays0]
    table_m = sum([m(c) for c in table_cards])
    table_s = float(sum([surv[c] for c in table_cards]))
    enc_m = m(encounter) if encounter is not None else 0.0
    enc_s = float(surv[encounter]) if encounter is not None else 0.0
    share = 1.0 / max(n - 1, 1)
    rival_share = 1.0 / max(n - 1, 1)
    unseen_n = D.unseen_n
    per_led: dict = {}
    beat_memo: dict = {}
    out = []
    for option in options:
        card, side = option.value if lead else (option.value, side0)
        led = led0
        if led is None and not S.never_leads[card]:
            led = fac[card]
        facts = per_led.get(led)
        if facts is None:
            facts = per_led[led] = _led_facts(S, D, led, rest, voids, transfer, sizes)
        adds, add_m, add_s, profile, plain, table_best = facts[:6]
        card_m = m(card)
        # the best card on the table with mine (no trumps here: the best card of the Faction led)
        best_seat, bval = table_best
        v = val[card]
        high = side == "+"
        if led is not None and v is not None and fac[card] == led and (
                best_seat is None or (v > bval if high else v < bval)):
            best_seat, bval = me, v
        contest = led is not None and best_seat == me
        p_win = 1.0 if contest else 0.0
        likely = best_seat if best_seat is not None and best_seat != me else (rest[0] if rest else leader)
        if contest:
            worth = table_m + card_m + enc_m
            biggest = 0.0
            values = D.values(led)
            for seat, a_m in adds:
                worth += a_m
                key = (led, bval, high, seat)
                beat = beat_memo.get(key)
                if beat is None:
                    if led in voids.get(seat, ()):
                        beat = 0.0
                    else:
                        better = len(values) - bisect_right(values, bval) if high else bisect_left(values, bval)
                        beat = 1.0 - _p_none(unseen_n, better, sizes[seat])
                    beat_memo[key] = beat
                p_beat = beat if worth > 0 else 0.3 * beat
                if p_beat > biggest:
                    biggest, likely = p_beat, seat
                p_win *= 1.0 - p_beat
        u_win = u_lose = 0.0
        if plain:
            trick_m = table_m + card_m + add_m
            trick_s = table_s + surv[card] + add_s
            if p_win > 0:
                u_win = _plain(D, profile, True, table_cards + [card], add_m, trick_m, trick_s, encounter, enc_m,
                               enc_s, share, rival_share)
            if p_win < 1:
                u_lose = _plain(D, profile, False, (), add_m, trick_m, trick_s, encounter, enc_m, enc_s, share,
                                rival_share)
        else:
            items = [D.item(c) for c in table_cards]
            items.append(D.item(card))
            items += _add_items(D, facts, per_led)
            enc_item = D.item(encounter) if encounter is not None else None
            if p_win > 0:
                u_win = _utility(D, profile, items, enc_item, me)
            if p_win < 1:
                u_lose = _utility(D, profile, items, enc_item, likely)
        keep = S.keep[card]
        if not S.valueless[card] and card_m < 0:
            keep = 0.5 * card_m
        out.append(p_win * u_win + (1 - p_win) * u_lose - keep)
    return out


def _led_facts(S: Statics, D: Decision_, led, rest, voids, transfer, sizes) -> tuple:
    """What does not depend on my card, for one Faction led: each later seat's likely addition, the on-win
    summary, the best card already on the table."""
    fac = S.fac
    mean_all = D.fmean(None)
    dump = mean_all * 1.5 if mean_all < 0 else mean_all
    adds = []
    follows = []
    if led is None:
        for seat in rest:
            adds.append((seat, mean_all))
            follows.append(1.0)
    else:
        f_mean = D.fmean(led)
        n_led = len(D.by_f.get(led, ()))
        for seat in rest:
            if led in voids.get(seat, ()):
                p = 0.0
            elif any(fac[c] == led for c in transfer[seat]):
                p = 1.0
            else:
                p = 1.0 - _p_none(D.unseen_n, n_led, sizes[seat])
            follows.append(p)
            adds.append((seat, p * f_mean + (1 - p) * dump))
    add_m = sum([a for _, a in adds])
    profile = S.profiles.get(led) if led is not None else None
    if profile is None:
        profile = _EMPTY
    plain = not profile.deals and not profile.partial and not profile.sheds
    best = (None, None)
    if led is not None:
        trick = D.obs["trick"]
        val = S.val
        high = trick["side"] == "+"
        for p in trick["plays"]:
            c = p["id"]
            v = val[c]
            if v is None or fac[c] != led:
                continue
            if best[0] is None or (v > best[1] if high else v < best[1]):
                best = (p["seat"], v)
    return adds, add_m, add_m, profile, plain, best, follows, led


_EMPTY = OnWin()


def _add_items(D: Decision_, facts, per_led: dict) -> list[Item]:
    """The later seats' likely additions as Items (Estimate.addition: the typical card of the likelier case),
    made once per Faction led."""
    adds, follows, led = facts[0], facts[6], facts[7]
    key = ("items", led)
    out = per_led.get(key)
    if out is not None:
        return out
    out = per_led[key] = []
    for (seat, worth), p in zip(adds, follows):
        f, v = D.typical(led if led is not None and p >= 0.5 else None)
        out.append(Item(f, v, worth, worth, None))
    return out


def _plain(D: Decision_, profile: OnWin, i_win: bool, real, add_m: float, trick_m: float, trick_s: float,
           enc, enc_m: float, enc_s: float, share: float, rival_share: float) -> float:
    """FastGreedyAgent._plain: a trick whose power deals, moves and sheds nothing, valued from sums."""
    mine = others = 0.0
    gained: list[int] = []
    gained_m = 0.0
    dest = profile.trick
    if dest != REMOVED:
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
    if enc is not None and dest != REMOVED:
        if i_win:
            if dest == ME or (dest == CHOICE and enc_m >= 0):
                gained.append(enc)
            else:
                others += enc_s
        elif dest == ME or (dest == CHOICE and enc_s >= 0):
            others += enc_s
        else:
            mine += share * enc_m
            others += (1 - share) * enc_s
    if i_win:
        mine += 0.3 * profile.draws + (0.5 if profile.control else 0.0) + profile.score
        mine += D.set_worth(gained) + gained_m
    return mine - others * rival_share


def _send(group, dest: str, i_win: bool, share: float, gained: list, mine: float, others: float) -> tuple:
    """greedy._send: where cards the trick's winner takes end up."""
    if not group or dest == REMOVED:
        return mine, others
    if i_win:
        if dest == ME or (dest == CHOICE and sum([x.m for x in group]) >= 0):
            gained.extend(group)
        else:
            others += sum([x.survivors for x in group])
        return mine, others
    worth_s = sum([x.survivors for x in group])
    if dest == ME or (dest == CHOICE and worth_s >= 0):
        others += worth_s
    else:
        mine += share * sum([x.m for x in group])
        others += (1 - share) * worth_s
    return mine, others


def _utility(D: Decision_, profile: OnWin, items: list[Item], enc: Item | None, winner: int) -> float:
    """GreedyAgent._utility (no teams): my gain minus the others' mean gain when `winner` takes the trick."""
    S = D.S
    n, me = D.n, D.me
    gained: list[Item] = []
    lost: list[int] = []
    mine = others = 0.0
    i_win = winner == me
    share = 1.0 / max(n - 1, 1)
    led_hint = items[0].faction if items else None
    remaining = items
    passes = S.passes
    for conds, order in profile.deals:
        dealt = [x for x in remaining if passes(conds, x, led_hint)]
        if not dealt:
            continue
        remaining = [x for x in remaining if not any(x is y for y in dealt)]
        for attr, direction in reversed(order):
            dealt.sort(key=lambda x: getattr(x, attr, 0) or 0, reverse=direction == "highest")
        for i, x in enumerate(dealt):
            if (winner + i) % n == me:
                gained.append(x)
            else:
                others += x.survivors
    for what, conds, dest in profile.partial:
        group = remaining if what == "trick" else ([enc] if enc else [])
        moved = [x for x in group if passes(conds, x, led_hint)]
        if what == "trick":
            remaining = [x for x in remaining if not any(x is y for y in moved)]
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
                pool += [D.item(c) for c in D.my_pile]
            pool = [x for x in pool if passes(shed.conds, x, led_hint)]
            pool.sort(key=lambda x: x.m)
            chosen = pool[:shed.count] if shed.mandatory else [x for x in pool[:shed.count] if x.m < 0]
            for x in chosen:
                if any(x is y for y in gained):
                    gained = [y for y in gained if y is not x]
                else:
                    lost.append(x.card)
                if shed.dest in (OTHER, CHOICE):
                    others += x.survivors
        elif shed.dest in (OTHER, CHOICE):
            mine += share * D.fmean(None) * shed.count
    if i_win:
        mine += 0.3 * profile.draws + (0.5 if profile.control else 0.0) + profile.score
        mine += 0.3 * sum(s.count for s in profile.sheds if s.source == "held")
    mine += D.set_worth([x.card for x in gained if x.card is not None], lost)
    mine += sum(x.m for x in gained if x.card is None)
    return mine - others / max(n - 1, 1)


__all__ = ["Statics", "statics", "scores"]
