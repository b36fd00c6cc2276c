"""The `greedy` bot's leads and follows, scored from per-process tables: a few microseconds an option.

FastGreedyAgent (players/fast_greedy.py) scores a lead or a follow by GreedyAgent's rules of thumb (the
chance that the card wins, the trick's likely content read through the Faction led's `on win` summary, the
worth of the card kept in hand), with card worths from the hook table. This module computes the same scores
(docs/bots.md, "FastGreedyAgent") with what can be known before the game kept per process
(`statics`: for each set-up, Factions in play, players and seat, the cards' Factions, values, worths, rules
of thumb and sort orders, each Faction's on-win summary, the filters of its deals and moves judged card by
card) and, per decision, only the observation's keys it needs, read by their ids. A trick whose power deals,
moves or sheds is valued by GreedyAgent's own `trick_utility`, reading those tables through Decision_.

A game with what these tables do not hold — teams, trumps, `rule counts as`, secret Transfer zones — is
left to FastGreedyAgent's general scoring (`statics(...).ok` is False).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from itertools import filterfalse, islice
from operator import attrgetter, itemgetter
from typing import Mapping

from happydayz.kernel.determinize import expeditions_seen, known_cards, trick_voids
from happydayz.kernel.observation import Observation, card_ids
from happydayz.players import contract
from happydayz.players.greedy import (CHOICE, ME, OTHER, REMOVED, Item, OnWin, PowerModel, _P_NONE, _p_none,
                                      ir_nodes, matches, shed_from, trick_utility)


def _attrs_read(node) -> set[str]:
    """The card attributes an IR subtree reads (BareAttr / it.attr)."""
    return {x["attr"] for x in ir_nodes(node) if x.get("node") in ("BareAttr", "AttrOf") and "attr" in x}


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
        self.always = [False] * size
        self.conditional_rules = any(r.never_leads_when is not None or r.always_playable_when is not None
                                     for r in rules.values())
        self.keep = [0.0] * size  # the static part of GreedyAgent._hand_worth (a card whose worth is >= 0)
        self.valueless = [False] * size
        for c, r in rules.items():
            spec = cards[c]
            self.never_leads[c] = bool(r.never_leads)
            self.always[c] = bool(r.always_playable)
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
        self.typical_key = {c: (worth[c], cards[c].value or 0) for c in in_play.cards}
        self.by_value = {f: sorted((c for c in group if cards[c].value is not None), key=lambda c: cards[c].value)
                         for f, group in self.of_faction.items()}  # (the unseen values, sorted, by a filter)
        self.profiles: dict[str, OnWin] = {}
        for f in self.factions:
            self.profiles[f] = model.on_win(obs, f)
        # a power valued from sums: it deals nothing, moves no part of the trick, and its choices of cards
        # (sheds) come from neither the trick nor one's Expedition zone (GreedyAgent._utility reads no other)
        self.plain_kind = {f: not p.deals and not p.partial and all(sh.source not in ("expedition", "trick")
                                                                    for sh in p.sheds)
                           for f, p in self.profiles.items()}
        # (a power whose choices come from one's hand or another's: GreedyAgent counts 0.3 a held card on a win)
        self.win_const = {f: 0.3 * p.draws + (0.5 if p.control else 0.0) + p.score
                          + 0.3 * sum(sh.count for sh in p.sheds if sh.source == "held")
                          for f, p in self.profiles.items()}
        self.hooked = bool(in_play.hooks or in_play.card_hooks)
        self.card_hooks = bool(in_play.card_hooks)
        self.table = hook_table(model, obs, in_play, seat) if self.hooked else None
        # h(f, c) for c = 0 .. the Faction's cards, for each Faction the hooks count at all (the rest give 0)
        self.curves: dict[str, list[float]] = {}
        if in_play.hooks:
            for f, group in self.of_faction.items():
                curve = [self.table.h(f, k) for k in range(len(group) + 1)]
                if any(curve):
                    self.curves[f] = curve
        self.survf = [float(v) for v in model.survivors]
        self.own = [0.0] * size  # a card's own end-of-round power, for it alone
        if in_play.card_hooks:
            for c in in_play.cards:
                self.own[c] = self.table.own(c)
        self.reads_tricks = contract.reads_tricks(model, obs)  # (a score that counts tricks: a trick's own worth)
        self._passes: dict[tuple, bool] = {}
        self._attrs: dict[int, tuple] = {}  # id(conds) -> (conds, the attributes they read), conds kept alive

    def passes(self, conds: list, x: Item, led) -> bool:
        """matches(conds, x, led), kept for the process by what the conditions read of a card (its attributes
        named in them) and the Faction led."""
        got = self._attrs.get(id(conds))
        if got is None:
            attrs = sorted(_attrs_read(conds))
            # (an attribute an Item lacks reads as None: matches reads it so too)
            getter = attrgetter(*attrs) if attrs and all(a in _ITEM_FIELDS for a in attrs) else None
            got = self._attrs[id(conds)] = (conds, getter, tuple(attrs))
        getter = got[1]
        if getter is not None:
            key = (id(conds), led, getter(x))
        else:
            key = (id(conds), led, *[getattr(x, a, None) for a in got[2]])
        got = self._passes.get(key)
        if got is None:
            got = self._passes[key] = matches(conds, x, led)
        return got


_ITEM_FIELDS = frozenset(("faction", "value", "survivors", "m", "card"))


_STATICS: dict[tuple, Statics] = {}


def statics(model: PowerModel, obs: Mapping, seat: int, hook_table) -> Statics:
    """The Statics of this seat and the Factions in play (a seat view names them in one key: "in_play")."""
    if isinstance(obs, Observation) and obs._data is None and obs._part is not None:
        key = (id(model), card_ids(obs, "in_play"), seat)
    else:
        key = (id(model), model.in_play(obs), seat)
    got = _STATICS.get(key)
    if got is None or got.model is not model:
        got = _STATICS[key] = Statics(model, obs, model.in_play(obs), seat, hook_table)
    return got


class Decision_:
    """One decision's facts (the lean Estimate): unseen cards by Faction, my zone's counts, the worths."""

    __slots__ = ("S", "obs", "me", "n", "unseen_n", "by_f", "surv_f", "sizes", "voids", "transfer", "counts", "mine",
                 "my_pile", "mine_set", "seen", "m", "_m_add", "_fmean", "_mean_all", "_items", "_typ", "_vals", "_gain_in")

    def __init__(self, S: Statics, obs: Mapping, transfer, seen: set, mine: list[int], face_up):
        self.S, self.obs, self.seen = S, obs, seen
        self.me, self.n = S.seat, S.n
        self.m = self._m if S.hooked else S.survf.__getitem__
        by_f, surv_f = {}, {}
        total = 0
        seen_has = seen.__contains__
        surv = S.surv
        for f, group in S.of_faction.items():
            u = by_f[f] = list(filterfalse(seen_has, group))
            if u:
                surv_f[f] = sum([surv[c] for c in u])  # (the unseen cards' Survivors, summed once: fmean)
                total += len(u)
        self.by_f, self.surv_f, self.unseen_n = by_f, surv_f, total
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

    # --- what greedy.trick_utility reads of an Estimate (no teams here: statics(...).ok)
    @property
    def team(self) -> tuple[int]:
        return (self.me,)

    @property
    def rivals(self) -> int:
        return self.n - 1

    @property
    def passes(self):
        return self.S.passes

    def faction_mean(self, f: str | None) -> float:
        return self.fmean(f)

    # --- worths (FastEstimate's)
    def _curve(self, f: str, c: int) -> float:
        curve = self.S.curves[f]
        return curve[max(0, min(c, len(curve) - 1))]

    def gain(self, f: str) -> float:
        """The hooks' worth of one more card of Faction f in my zone."""
        got = self._m_add.get(f)
        if got is None:
            if f in self.S.curves:
                c = self.counts.get(f, 0)
                got = self._curve(f, c + 1) - self._curve(f, c)
            else:
                got = 0.0
            self._m_add[f] = got
        return got

    def _m(self, card: int) -> float:
        """A card's worth to me if it ends in my zone (FastEstimate.m): `m`, which is a lookup without hooks."""
        S = self.S
        got = S.survf[card]
        if not S.hooked:
            return got
        if S.curves:
            f = S.fac[card]
            if f in S.curves:
                if card in self.mine_set:
                    c = self.counts.get(f, 0)
                    got += self._curve(f, c) - self._curve(f, c - 1)
                else:
                    got += self.gain(f)
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
                got = self.surv_f[f] / len(pool)
                if S.curves:
                    got += self.gain(f)
            self._fmean[f] = got
        return got

    def _all_mean(self) -> float:
        if not self.unseen_n:
            return 0.0
        S = self.S
        if S.hooked and not S.card_hooks:
            total, by_f, gain = 0.0, self.by_f, self.gain
            for f, s in self.surv_f.items():
                total += s + len(by_f[f]) * gain(f)
            return total / self.unseen_n
        if S.card_hooks:
            return sum(sum(map(self.m, g)) for g in self.by_f.values()) / self.unseen_n
        return sum(self.surv_f.values()) / self.unseen_n

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
        curves = S.curves
        if curves:
            fac = S.fac
            changes: dict[str, int] = {}
            for c in gained:
                f = fac[c]
                if f in curves:
                    changes[f] = changes.get(f, 0) + 1
            for c in lost:
                f = fac[c]
                if f in curves:
                    changes[f] = changes.get(f, 0) - 1
            counts, curve = self.counts, self._curve
            for f, k in changes.items():
                if k:
                    c = counts.get(f, 0)
                    worth += curve(f, c + k) - curve(f, c)
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
        seen = self.seen.__contains__
        if led is not None:
            pool = list(filterfalse(seen, S.typical_order.get(led, ())))
        else:
            worst = islice(filterfalse(seen, S.by_worth), max(self.unseen_n // 3, 1))
            pool = sorted(worst, key=S.typical_key.__getitem__)
        got = self._typ[led] = (S.fac[pool[len(pool) // 2]], S.val[pool[len(pool) // 2]]) if pool else (None, None)
        return got

    def values(self, led: str) -> list[int]:
        got = self._vals.get(led)
        if got is None:
            val = self.S.val
            got = self._vals[led] = list(map(self.S.val.__getitem__,
                                             filterfalse(self.seen.__contains__, self.S.by_value.get(led, ()))))
        return got


def read(S: Statics, obs: Mapping) -> tuple:
    """(seen, my zone's known cards, my face-up ones there, transfer, encounter, (leader, side, led, plays),
    voids, hand sizes): from a seat view, each key by its maker (the "seen" ids in one pass); from any other
    observation, as determinize reads them."""
    if isinstance(obs, Observation) and obs._data is None and obs._part is not None:
        part = obs._part  # (the view's makers straight: every key is read once)
        seen, mine, up = part("seen#ids")
        return (seen, mine, up, part("transfer#ids"), part("encounter#ids"), part("trick#ids"), part("voids"),
                part("hand_sizes"))
    me = S.seat
    exp_seen = expeditions_seen(obs)
    t = obs["trick"]
    trick = (t["leader"], t["side"], t["led"], [(p["seat"], p["id"]) for p in t["plays"]])
    return (known_cards(obs, exp_seen), exp_seen[me], set(card_ids(obs, "expedition_face_up")[me]),
            card_ids(obs, "transfer"), card_ids(obs, "encounter"), trick, obs["voids"], obs["hand_sizes"])


def scores(S: Statics, obs: Mapping, options, lead: bool) -> list[float]:
    """FastGreedyAgent's score of each option of a lead or follow (higher is better)."""
    return score_options(prepare(S, obs), options, lead)


def prepare(S: Statics, obs: Mapping) -> "_Ctx":
    """The decision's facts that no option changes: what is seen, the unseen cards, the trick, who is still to
    play, the voids (bench/greedy_parts.py times this apart from the scoring)."""
    seen, mine, face_up, transfer, encounter, trick, obs_voids, sizes = read(S, obs)
    D = Decision_(S, obs, transfer, seen, mine, face_up)
    me, n, surv = S.seat, S.n, S.surv
    leader, side0, led0, plays0 = trick
    voids = _trick_voids(S, obs, plays0, led0) if plays0 and led0 is not None else {}
    for seat, factions in enumerate(obs_voids):
        if factions:
            voids.setdefault(seat, set()).update(factions)
    played = {p[0] for p in plays0}
    played.add(me)
    rest = [seat for seat in ((leader + step) % n for step in range(1, n))
            if seat not in played and (sizes[seat] + len(transfer[seat])) > 0]
    m = D.m
    table_cards = [c for _, c in plays0]
    table_m = sum([m(c) for c in table_cards])
    table_s = float(sum([surv[c] for c in table_cards]))
    share = 1.0 / max(n - 1, 1)
    ctx = _Ctx(S, D, table_cards, table_m, table_s, encounter, share, rest, voids, transfer, sizes, plays0)
    ctx.side, ctx.leader, ctx.led0 = side0, leader, led0
    fac = S.fac.__getitem__
    ctx.passed = [set(map(fac, cards)) if cards else () for cards in transfer]
    D.fmean(None)
    ctx.gain = contract.gain(S.model, obs, me, sizes[me] + len(transfer[me])) if S.reads_tricks else 0.0
    return ctx


def score_options(ctx: "_Ctx", options, lead: bool) -> list[float]:
    """Each option's score on the decision's facts."""
    S, D = ctx.S, ctx.D
    me = S.seat
    fac, val, surv, keep, valueless, never_leads = S.fac, S.val, S.surv, S.keep, S.valueless, S.never_leads
    side0, leader, rest, m = ctx.side, ctx.leader, ctx.rest, D.m
    led0, gain = ctx.led0, ctx.gain
    unseen_n = D.unseen_n
    per_led: dict = {}
    out = []
    for option in options:
        card, side = option.value if lead else (option.value, side0)
        led = led0
        if led is None and not never_leads[card]:
            led = fac[card]
        F = per_led.get(led)
        if F is None:
            F = per_led[led] = _Led(ctx, led)
        card_m = m(card)
        best_seat, bval = F.best_seat, F.bval
        v = val[card]
        high = side == "+"
        if led is not None and v is not None and fac[card] == led and (
                best_seat is None or (v > bval if high else v < bval)):
            best_seat, bval = me, v
        if led is not None and best_seat == me:
            p_win = 1.0
            likely = rest[0] if rest else leader
            worth = F.worth0 + card_m
            biggest = 0.0
            values = F.values
            if values is None:
                values = F.values = D.values(led)
            # (GreedyAgent._beats: a later seat not void in the Faction led holds one of the `better` cards)
            better = len(values) - bisect_right(values, bval) if high else bisect_left(values, bval)
            for seat, a_m, void, size in F.seats:
                worth += a_m
                if void:
                    beat = 0.0
                else:
                    beat = _P_NONE.get((unseen_n, better, size))
                    beat = 1.0 - (beat if beat is not None else _p_none(unseen_n, better, size))
                p_beat = beat if worth > 0 else 0.3 * beat
                if p_beat > biggest:
                    biggest, likely = p_beat, seat
                p_win *= 1.0 - p_beat
        else:
            p_win = 0.0
            likely = best_seat if best_seat is not None else (rest[0] if rest else leader)
        if F.plain:
            score = F.plain_score(card, card_m, surv[card], p_win)
        else:
            score = F.general_score(card, p_win, likely)
        if gain:
            score += p_win * gain
        k = keep[card]
        if card_m < 0 and not valueless[card]:
            k = 0.5 * card_m
        out.append(score - k)
    return out


class _Ctx:
    """The decision's facts every Faction led shares."""

    __slots__ = ("S", "D", "table_cards", "table_m", "table_s", "enc", "enc_m", "enc_s", "share", "rest", "voids",
                 "transfer", "sizes", "plays0", "_sw", "side", "_enc", "leader", "led0", "passed", "gain")

    def __init__(self, S, D, table_cards, table_m, table_s, enc, share, rest, voids, transfer, sizes, plays0):
        self.S, self.D = S, D
        self.table_cards, self.table_m, self.table_s = table_cards, table_m, table_s
        self.enc = enc
        self.enc_m = D.m(enc) if enc is not None else 0.0
        self.enc_s = float(S.surv[enc]) if enc is not None else 0.0
        self.share, self.rest, self.voids, self.transfer, self.sizes, self.plays0 = (share, rest, voids, transfer,
                                                                                      sizes, plays0)
        self._sw: dict = {}
        self._enc: dict = {}

    def encounter_part(self, dest: str) -> tuple:
        """(taken if I win, the others' gain if I win, mine and the others' if another wins): the Encounter
        card's part of the trick sent to `dest` (greedy._send of it), the same for every card."""
        got = self._enc.get(dest)
        if got is None:
            take, win_others, lose_mine, lose_others = False, 0.0, 0.0, 0.0
            if self.enc is not None and dest != REMOVED:
                if dest == ME or (dest == CHOICE and self.enc_m >= 0):
                    take = True
                else:
                    win_others = self.enc_s
                if dest == ME or (dest == CHOICE and self.enc_s >= 0):
                    lose_others = self.enc_s
                else:
                    lose_mine = self.share * self.enc_m
                    lose_others = (1 - self.share) * self.enc_s
            got = self._enc[dest] = (take, win_others, lose_mine, lose_others)
        return got

    def won_worth(self, card: int | None, take_enc: bool) -> float:
        """set_worth of the table's cards and `card` (None: without them) and the Encounter card if taken."""
        key = (card, take_enc)
        got = self._sw.get(key)
        if got is None:
            group = [*self.table_cards, card] if card is not None else []
            if take_enc:
                group.append(self.enc)
            got = self._sw[key] = self.D.set_worth(group)
        return got


def _trick_voids(S: Statics, obs, plays0, led) -> dict:
    """determinize.trick_voids from the static rules (a `never leads`/`always playable` with a condition:
    trick_voids itself)."""
    if S.conditional_rules:
        return trick_voids(S.setup, obs)
    fac, never_leads, always = S.fac, S.never_leads, S.always
    start = 0
    for i, (_, c) in enumerate(plays0):
        if never_leads[c]:
            continue
        start = i if fac[c] == led else 0
        break
    voids: dict = {}
    for seat, c in plays0[start:]:
        if fac[c] != led and not always[c]:
            voids.setdefault(seat, set()).add(led)
    return voids


class _Led:
    """One Faction led's facts, which do not depend on my card: the later seats' likely additions, the chance
    that each beats a value, the on-win summary, the best card on the table."""

    __slots__ = ("C", "led", "adds", "follows", "add_m", "profile", "plain", "best_seat", "bval", "worth0",
                 "values", "win_const", "_items", "lose_enc_mine", "lose_enc_others", "win_enc_others",
                 "take_enc", "fast", "led_hint", "deal", "dealt", "kept_real", "kept_add", "sheds", "_cards", "add_kept_m", "add_kept_s",
                 "lose_shed", "_won", "_lost", "seats")

    def __init__(self, C: _Ctx, led):
        S, D = C.S, C.D
        fac = S.fac
        self.C, self.led = C, led
        mean_all = D.fmean(None)
        dump = mean_all * 1.5 if mean_all < 0 else mean_all
        adds, follows, seats = [], [], []
        voids, sizes = C.voids, C.sizes
        if led is None:
            for seat in C.rest:
                adds.append((seat, mean_all))
                follows.append(1.0)
                seats.append((seat, mean_all, False, sizes[seat]))
        else:
            f_mean = D.fmean(led)
            n_led = len(D.by_f.get(led, ()))
            passed, unseen_n = C.passed, D.unseen_n
            for seat in C.rest:
                void = seat in voids and led in voids[seat]
                if void:
                    p = 0.0
                elif led in passed[seat]:  # (a card of it lies in the seat's Transfer zone: it follows)
                    p = 1.0
                else:
                    p = 1.0 - _p_none(unseen_n, n_led, sizes[seat])
                follows.append(p)
                a = p * f_mean + (1 - p) * dump
                adds.append((seat, a))
                seats.append((seat, a, void, sizes[seat]))
        self.adds, self.follows, self.seats = adds, follows, seats
        self.add_m = sum([a for _, a in adds])
        profile = S.profiles.get(led) if led is not None else None
        self.profile = profile = profile if profile is not None else _EMPTY
        self.plain = S.plain_kind.get(led, True) if led is not None else True
        best_seat = bval = None
        if led is not None:
            val = S.val
            high = C.side == "+"
            for seat, c in C.plays0:
                v = val[c]
                if v is None or fac[c] != led:
                    continue
                if best_seat is None or (v > bval if high else v < bval):
                    best_seat, bval = seat, v
        self.best_seat, self.bval = best_seat, bval
        self.worth0 = C.table_m + C.enc_m
        self.values = None
        self._items = None
        self.fast = None
        self._won: dict = {}  # card (or card, winner) -> the utility of my winning (or of `winner`'s)
        self._lost: dict = {}
        self.win_const = S.win_const.get(led, 0.0)
        self.take_enc, self.win_enc_others, self.lose_enc_mine, self.lose_enc_others = C.encounter_part(
            profile.encounter)

    def plain_score(self, card: int, card_m: float, card_s: float, p_win: float) -> float:
        """FastGreedyAgent._plain of both outcomes, weighted: a power that deals, moves and sheds from the
        trick and one's zone nothing (its other sheds count as GreedyAgent counts them: win_const). Each
        outcome once per card (the two sides of a lead make the same trick)."""
        score = 0.0
        if p_win > 0:
            u = self._won.get(card)
            if u is None:
                u = self._won[card] = self._plain_win(card, card_m, card_s)
            score = p_win * u
        if p_win < 1:
            u = self._lost.get(card)
            if u is None:
                u = self._lost[card] = self._plain_lose(card_m, card_s)
            score += (1 - p_win) * u
        return score

    def _plain_win(self, card: int, card_m: float, card_s: float) -> float:
        C = self.C
        dest = self.profile.trick
        others = self.win_enc_others
        mine = self.win_const
        take = False
        if dest != REMOVED:
            if dest == ME or (dest == CHOICE and C.table_m + card_m + self.add_m >= 0):
                take = True
                mine += self.add_m
            else:
                others += C.table_s + card_s + self.add_m
        if take or self.take_enc:
            mine += C.won_worth(card if take else None, self.take_enc)
        return mine - others * C.share

    def _plain_lose(self, card_m: float, card_s: float) -> float:
        C = self.C
        share = C.share
        dest = self.profile.trick
        mine, others = self.lose_enc_mine, self.lose_enc_others
        if dest != REMOVED:
            trick_s = C.table_s + card_s + self.add_m
            if dest == ME or (dest == CHOICE and trick_s >= 0):
                others += trick_s
            else:
                mine += share * (C.table_m + card_m + self.add_m)
                others += (1 - share) * trick_s
        return mine - others * share

    def general_score(self, card: int, p_win: float, likely: int) -> float:
        """GreedyAgent._utility of both outcomes, weighted: a power that deals, moves or sheds."""
        C = self.C
        D = C.D
        if self.fast is None:
            self.fast = not self.profile.partial and len(self.profile.deals) <= 1
            if self.fast:
                self._plan()
        if self.fast:
            score = 0.0
            if p_win > 0:
                score = p_win * self._utility_of(card, D.me)
            if p_win < 1:
                score += (1 - p_win) * self._utility_of(card, likely)
            return score
        items = [D.item(c) for c in C.table_cards]
        items.append(D.item(card))
        items += self.add_items()
        enc_item = D.item(C.enc) if C.enc is not None else None
        score = 0.0
        if p_win > 0:
            score = p_win * trick_utility(D, self.profile, items, enc_item, D.me)
        if p_win < 1:
            score += (1 - p_win) * trick_utility(D, self.profile, items, enc_item, likely)
        return score

    def _plan(self) -> None:
        """What _utility reads that does not depend on my card: the items dealt (sorted by the deal's order,
        ties in the trick's order: the table's cards, mine, the later seats' additions), those left, and the
        sheds' pools in my Expedition zone."""
        C = self.C
        D, S = C.D, C.S
        # (GreedyAgent's: the Faction of the trick's first card, mine on a lead)
        self.led_hint = led_hint = S.fac[C.table_cards[0]] if C.table_cards else self.led
        table = [D.item(c) for c in C.table_cards]
        adds = self.add_items()
        self.deal = self.profile.deals[0] if self.profile.deals else None
        dealt: list = []
        self.kept_real: list[Item] = []
        kept_add: list[Item] = []
        if self.deal is not None:
            conds, order = self.deal
            for pos, x in enumerate(table):
                if S.passes(conds, x, led_hint):
                    dealt.append((self._key(x, order, pos), x))
                else:
                    self.kept_real.append(x)
            for pos, x in enumerate(adds):
                if S.passes(conds, x, led_hint):
                    dealt.append((self._key(x, order, len(table) + 1 + pos), x))
                else:
                    kept_add.append(x)
            dealt.sort(key=_first)
        else:
            self.kept_real, kept_add = table, list(adds)
        self.dealt = dealt
        self.kept_add = kept_add
        self.add_kept_m = sum([x.m for x in kept_add])
        self.add_kept_s = sum([x.survivors for x in kept_add])
        self.sheds = []
        share = C.share
        self.lose_shed = 0.0
        for sh in self.profile.sheds:
            if sh.source not in ("expedition", "trick"):
                continue
            pile = sorted(D.my_pile, key=D.m) if sh.source == "expedition" else []
            if sh.conds:
                pile = [c for c in pile if S.passes(sh.conds, D.item(c), led_hint)]
            self.sheds.append((sh, [D.item(c) for c in pile[:sh.count]]))
            if sh.dest in (OTHER, CHOICE):
                self.lose_shed += share * D.fmean(None) * sh.count
        self._cards = {}

    @staticmethod
    def _key(x: Item, order, pos: int) -> tuple:
        return tuple((-(getattr(x, attr, 0) or 0) if direction == "highest" else (getattr(x, attr, 0) or 0))
                     for attr, direction in order) + (pos,)

    def _with(self, card: int) -> tuple:
        """(the items dealt, the real cards left to the trick's destination, their worth to me, to anyone) with
        my card in the trick."""
        got = self._cards.get(card)
        if got is None:
            C = self.C
            x = C.D.item(card)
            kept = self.kept_real
            if self.deal is not None and C.S.passes(self.deal[0], x, self.led_hint):
                dealt = list(self.dealt)
                insort(dealt, (self._key(x, self.deal[1], len(C.table_cards)), x))
            else:
                dealt = self.dealt
                kept = [*kept, x]
            got = self._cards[card] = ([y for _, y in dealt], kept,
                                       sum([y.m for y in kept]) + self.add_kept_m,
                                       sum([y.survivors for y in kept]) + self.add_kept_s)
        return got

    def _utility_of(self, card: int, winner: int) -> float:
        key = (card, winner)
        got = self._won.get(key)
        if got is None:
            got = self._won[key] = self.utility(card, winner)
        return got

    def utility(self, card: int, winner: int) -> float:
        """GreedyAgent._utility (no teams, at most one deal, no part of the trick moved) of the trick with my
        card when `winner` takes it."""
        C = self.C
        D = C.D
        me, n, share = D.me, D.n, C.share
        i_win = winner == me
        dealt, kept, kept_m, kept_s = self._with(card)
        gained: list[Item] = []
        others = mine = 0.0
        for i, y in enumerate(dealt):
            if (winner + i) % n == me:
                gained.append(y)
            else:
                others += y.survivors
        dest = self.profile.trick
        if (kept or self.kept_add) and dest != REMOVED:  # (greedy._send of the cards left)
            if i_win:
                if dest == ME or (dest == CHOICE and kept_m >= 0):
                    gained += kept
                    gained += self.kept_add
                else:
                    others += kept_s
            elif dest == ME or (dest == CHOICE and kept_s >= 0):
                others += kept_s
            else:
                mine += share * kept_m
                others += (1 - share) * kept_s
        if i_win:
            if self.take_enc:
                gained.append(D.item(C.enc))
            else:
                others += self.win_enc_others
            lost: list[int] = []
            for sh, pile in self.sheds:
                led_hint, passes = self.led_hint, C.S.passes
                pool = [y for y in gained if y.card is not None and passes(sh.conds, y, led_hint)] + pile
                pool.sort(key=_by_m)
                gained, others = shed_from(pool, sh, gained, lost, others)
            mine += self.win_const
            if not C.S.hooked:  # (a card's worth is its Survivors: set_worth is a sum)
                return mine + sum([y.m for y in gained]) - sum([C.S.survf[c] for c in lost]) - others * share
            mine += D.set_worth([y.card for y in gained if y.card is not None], lost)
        else:
            mine += self.lose_enc_mine + self.lose_shed
            others += self.lose_enc_others
            if not C.S.hooked:
                return mine + sum([y.m for y in gained]) - others * share
            mine += D.set_worth([y.card for y in gained if y.card is not None])
        mine += sum([y.m for y in gained if y.card is None])
        return mine - others * share

    def add_items(self) -> list[Item]:
        """The later seats' likely additions as Items (Estimate.addition: the typical card of the likelier case)."""
        if self._items is None:
            D, led = self.C.D, self.led
            out = []
            for (seat, worth), p in zip(self.adds, self.follows):
                f, v = D.typical(led if led is not None and p >= 0.5 else None)
                out.append(Item(f, v, worth, worth, None))
            self._items = out
        return self._items


_EMPTY = OnWin()
_by_m = attrgetter("m")
_first = itemgetter(0)


__all__ = ["Statics", "statics", "scores", "prepare", "score_options"]
