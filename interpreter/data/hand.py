"""The hand as data: how a round is dealt, passed and led (`hand:` of a box file or a scenario).

A box file's `hand:` says who deals, how many cards each Community gets, which
way the Transfer goes and who leads each round's first trick; a scenario's
`hand:` replaces its keys one by one. `Hand` is what a file says (None: not
said), `Hand.over` lays one over another, and HAPPY_DAYZ holds the defaults —
Happy DayZ's own rules, the rows of docs/rules.md's table. The kernel reads the
result (kernel.setup.build_setup), so neither of its trick loops keeps a rule
of its own. docs/boxes.md describes the keys.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, fields
from typing import Any, Callable

#: Who deals: nobody (Happy DayZ), one seat every round, the next seat clockwise each round, or chosen.
DEALERS = ("none", "fixed", "rotating", "chosen")
#: The first leader's rules named by a word; {holder: card} and {seat: n} are the other two.
LEADER_WORDS = ("best_transfer_card", "fewest_survivors", "dealer", "dealer_left", "auction_winner",
                "auction_winner_left")
#: Where the Transfer goes (both: Happy DayZ's, left then right, alternating).
TRANSFER_TO = ("both", "left", "right", "across", "none")
SEEN_BY = ("everyone", "giver_and_receiver")
INTO = ("transfer_zone", "hand")
#: Who wins at the end: the most Survivors (Happy DayZ), or the fewest (a game whose scores count against).
WINNERS = ("most", "fewest")


@dataclass(frozen=True)
class ByRound:
    """A value given by round: round 1 takes the first item; past the end, the last one (or, for a
    cycle, the list starts again)."""

    items: tuple
    cycle: bool = False

    def at(self, round_no: int):
        index = round_no - 1
        if index >= len(self.items):
            index = index % len(self.items) if self.cycle else len(self.items) - 1
        return self.items[index]

    def uses(self, test: Callable[[Any], bool]) -> bool:
        return any(test(item) for item in self.items)


class HandSizeError(ValueError):
    """A hand-size expression that is not allowed: the message and its column (0-based) in the text."""

    def __init__(self, message: str, column: int = 0) -> None:
        super().__init__(message)
        self.column = column


#: The names and functions a hand-size expression may use.
EXPRESSION_NAMES = ("round", "players", "rounds")
_FUNCTIONS = {"min": min, "max": max, "abs": abs}
_OPERATORS: dict[type, Callable[[int, int], int]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a // b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
}
_MAX_LENGTH = 200


@dataclass(frozen=True)
class SizeExpression:
    """A hand size as an expression of `round`, `players` and `rounds` (whole numbers only).

    Read with Python's own parser (the ast module, rather than a parser of our own) and turned
    into closures over a few node forms; nothing of it is ever run as code.
    """

    text: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "_fn", _compile_size(self.text))

    def __call__(self, round_no: int, players: int, rounds: int) -> int:
        try:
            return self._fn({"round": round_no, "players": players, "rounds": rounds})
        except ZeroDivisionError:
            raise HandSizeError(f"the hand size {self.text!r} divides by 0 in round {round_no} "
                                f"with {players} players") from None


def _compile_size(text: str) -> Callable[[dict], int]:
    if len(text) > _MAX_LENGTH:
        raise HandSizeError(f"the expression is longer than {_MAX_LENGTH} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise HandSizeError("this is not an expression: " + (exc.msg or "a syntax error"),
                            max(0, (exc.offset or 1) - 1)) from None
    depth = [0]

    def walk(node: ast.AST) -> Callable[[dict], int]:
        depth[0] += 1
        if depth[0] > 50:
            raise HandSizeError("the expression is nested too deeply", getattr(node, "col_offset", 0))
        if isinstance(node, ast.Constant) and type(node.value) is int:
            value = node.value
            return lambda env: value
        if isinstance(node, ast.Name) and node.id in EXPRESSION_NAMES:
            name = node.id
            return lambda env: env[name]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            op, left, right = _OPERATORS[type(node.op)], walk(node.left), walk(node.right)
            return lambda env: op(left(env), right(env))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner, sign = walk(node.operand), -1 if isinstance(node.op, ast.USub) else 1
            return lambda env: sign * inner(env)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS
                and not node.keywords and node.args and (node.func.id != "abs" or len(node.args) == 1)):
            fn, args = _FUNCTIONS[node.func.id], [walk(a) for a in node.args]
            if fn is abs:
                return lambda env: abs(args[0](env))
            return lambda env: fn(a(env) for a in args)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in _FUNCTIONS:
            what = f"the function {node.func.id!r} is not known here: use min, max or abs"
        elif isinstance(node, ast.Name):
            what = f"the name {node.id!r} is not known here: use {', '.join(EXPRESSION_NAMES)}"
        else:
            what = "only whole numbers, round, players, rounds, + - * / %, parentheses, min, max and abs are allowed"
        raise HandSizeError(what, getattr(node, "col_offset", 0))

    return walk(tree.body)


@dataclass(frozen=True)
class Auction:
    """An auction after the Transfer (`hand.auction`, docs/boxes.md): laps in table order from one seat.

    `bids`: ("numbers", low, high) a number; ("factions",) a Faction in play; ("levels", low, high) a level
    and a Faction, ("levels", low, high, True) also a level alone (no_trump), above every Faction's.
    `ends`: 0 for each Community once (one lap), FIRST_BID for the first bid (or a lap of
    passes), else the passes in a row that end it after a bid (and a lap of passes with no bid).
    `climbing`: a bid must beat the best one so far. These four are the first stage's; `then` holds the
    later stages (each an Auction of which only those four count), each run only if nobody has bid yet;
    `all_pass`: what follows an auction nobody bid in, "play" or "redeal".
    """

    first: Any = "dealer_left"  # who bids first: dealer_left, dealer, or ("seat", n)
    bids: tuple = ("numbers", 0, 13)
    ends: int = 0
    passing: bool = False  # whether a Community may pass
    climbing: bool = False
    then: tuple = ()
    all_pass: str = "play"

    @property
    def stages(self) -> tuple:
        return (self,) + self.then

    @property
    def level_alone(self) -> bool:
        """Whether this stage's bids include a level alone (`no_trump`: "3 no trump")."""
        return len(self.bids) > 3 and bool(self.bids[3])


#: `ends: first_bid` as Auction.ends says it.
FIRST_BID = -1
#: A round dealt again this many times in a row (all_pass: redeal) is played (docs/boxes.md).
MAX_REDEALS = 20


@dataclass(frozen=True)
class Teams:
    """Fixed partnerships (`hand.teams`, docs/boxes.md): the seats of each team, and how its score is kept.

    `score`: "pooled", one score for the team (each Community shows it), or "each", every Community its
    own (the team's is their sum).
    """

    partners: tuple[tuple[int, ...], ...]
    score: str = "pooled"


@dataclass(frozen=True)
class Hand:
    """What a `hand:` section says; None: not said (the box's, else Happy DayZ's rule)."""

    dealer: str | None = None
    first_dealer: int | None = None
    hand_size: Any = None  # "deal" (the box's deal table), an int, a ByRound of ints, a SizeExpression
    first_leader: ByRound | None = None  # of words (LEADER_WORDS), ("holder", label) or ("seat", n)
    transfer_cards: ByRound | None = None  # of ints
    transfer_to: ByRound | None = None  # of TRANSFER_TO
    seen_by: str | None = None
    into: str | None = None
    auction: Auction | str | None = None  # "none": no auction (Happy DayZ's; a scenario may say it over a box's)
    floor: int | str | None = None  # score.floor: the lowest a score falls to; "none": no floor (below zero)
    target: tuple | str | None = None  # score.target: "none", or (at_least, at_most), each a number or None
    winner: str | None = None  # score.winner: most or fewest
    teams: Teams | str | None = None  # "none": every Community for itself (Happy DayZ's)
    turn_up: bool | None = None  # the Reserve's top card turned face up after the deal
    dummy: str | None = None  # "none", or "partner_of_declarer": a hand laid face up, played by its partner

    def over(self, base: "Hand") -> "Hand":
        """This hand's keys, and `base`'s where this one says nothing."""
        return Hand(**{f.name: getattr(base, f.name) if getattr(self, f.name) is None else getattr(self, f.name)
                       for f in fields(Hand)})

    def given(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(Hand) if getattr(self, f.name) is not None)


#: Happy DayZ's hand: every default the kernel applies (docs/rules.md, "The hand and its defaults").
#: transfer_cards has no default here: it is the box's transfer_cards.
HAPPY_DAYZ = Hand(dealer="none", first_dealer=0, hand_size="deal",
                  first_leader=ByRound(("best_transfer_card", "fewest_survivors")),
                  transfer_to=ByRound(("both",)), seen_by="everyone", into="transfer_zone", auction="none",
                  floor=0, target="none", winner="most", teams="none", turn_up=False, dummy="none")


def by_round(value) -> ByRound:
    """A by-round value of a file (already checked by the schema): one value, a list, or {cycle: [...]}."""
    if isinstance(value, dict):
        return ByRound(tuple(value["cycle"]), cycle=True)
    if isinstance(value, list):
        return ByRound(tuple(value))
    return ByRound((value,))


def leader_rule(value):
    """A first-leader rule of a file: a word, or ("holder", label) / ("seat", n) for a mapping."""
    if isinstance(value, dict):
        (key, item), = value.items()
        return (key, item)
    return value


def hand_of(data: dict | None) -> Hand:
    """The Hand a `hand:` mapping says (already checked by the schema; an expression is compiled here and
    raises HandSizeError)."""
    if not data:
        return Hand()
    transfer = data.get("transfer", {})
    size = data.get("hand_size")
    if isinstance(size, str) and size != "deal":
        size = SizeExpression(size)
    elif isinstance(size, (list, dict)):
        size = by_round(size)
    leader = data.get("first_leader")
    if leader is not None:
        leader = by_round([leader] if isinstance(leader, dict) and "cycle" not in leader else leader)
        leader = ByRound(tuple(leader_rule(item) for item in leader.items), leader.cycle)
    return Hand(
        dealer=data.get("dealer"), first_dealer=data.get("first_dealer"), hand_size=size, first_leader=leader,
        transfer_cards=by_round(transfer["cards"]) if "cards" in transfer else None,
        transfer_to=by_round(transfer["to"]) if "to" in transfer else None,
        seen_by=transfer.get("seen_by"), into=transfer.get("into"),
        auction=(data["auction"] if data["auction"] == "none" else auction_of(data["auction"])) if "auction" in data
        else None,
        **score_of(data.get("score", {})),
        teams=teams_of(data["teams"]) if "teams" in data else None,
        turn_up=data.get("turn_up"),
        dummy=data.get("dummy"),
    )


def teams_of(data) -> Teams | str:
    """The Teams a `teams:` value says (already checked by the schema): "none", or the partnerships."""
    if data == "none":
        return data
    return Teams(tuple(tuple(team) for team in data["partners"]), data.get("score", "pooled"))


def score_of(data: dict) -> dict:
    """The Hand's fields a `score:` mapping says (already checked by the schema)."""
    said = {}
    if "floor" in data:
        said["floor"] = data["floor"]
    if "target" in data:
        target = data["target"]
        said["target"] = target if target == "none" else (target.get("at_least"), target.get("at_most"))
    if "winner" in data:
        said["winner"] = data["winner"]
    return said


def auction_of(data: dict, stage: bool = False) -> Auction:
    """The Auction an `auction:` mapping says (already checked by the schema); `stage`: one of its `then`."""
    bids = data.get("bids", {"numbers": [0, 13]})
    if "levels" in bids:
        kind = ("levels", *bids["levels"]) + ((True,) if bids.get("no_trump") else ())
    elif "numbers" in bids:
        kind = ("numbers", *bids["numbers"])
    else:
        kind = ("factions",)
    ends = data.get("ends", "each_once")
    passes = 0 if ends == "each_once" else FIRST_BID if ends == "first_bid" else ends["passes"]
    first = data.get("from", "dealer_left")
    then = () if stage else tuple(auction_of(item, True) for item in data.get("then", ()))
    return Auction(first=leader_rule(first), bids=kind, ends=passes, passing=data.get("pass", passes != 0),
                   climbing=data.get("climbing", passes > 0), then=then, all_pass=data.get("all_pass", "play"))


def hand_problems(hand: Hand) -> list[tuple[tuple[tuple, ...], str]]:
    """What the schema cannot say of a complete hand: (the paths in `hand:` of the keys at fault, the problem)."""
    problems = []
    leader = hand.first_leader is not None and hand.first_leader.uses(lambda r: r in ("dealer", "dealer_left"))
    bidder = isinstance(hand.auction, Auction) and hand.auction.first in ("dealer", "dealer_left")
    if (leader or bidder) and hand.dealer == "none":
        at = (("first_leader",),) if leader else (("auction", "from"), ("auction",))
        problems.append((at + (("dealer",),), "the first leader or the first bidder is the dealer or the dealer's "
                                              "left, but nobody deals: give the hand a dealer (fixed, rotating or "
                                              "chosen)"))
    if isinstance(hand.auction, Auction) and hand.auction.all_pass == "redeal" and hand.dealer == "none":
        problems.append(((("auction", "all_pass"), ("dealer",)), "nobody bids, so the next dealer deals again, but "
                                                                 "nobody deals: give the hand a dealer (fixed, "
                                                                 "rotating or chosen)"))
    wants_auction = hand.first_leader is not None and hand.first_leader.uses(lambda r: str(r).startswith("auction"))
    if wants_auction and not isinstance(hand.auction, Auction):
        problems.append(((("first_leader",),), "the first leader is the auction's winner, but the hand has no "
                                               "auction: give it one (auction:)"))
    return problems


def score_problems(hand: Hand) -> list[tuple[tuple[tuple, ...], str]]:
    """What the schema cannot say of a complete hand's score (D060), as hand_problems gives them."""
    problems = []
    if isinstance(hand.target, tuple) and isinstance(hand.floor, int):
        at_least, at_most = hand.target
        if at_most is not None and at_most < hand.floor:
            problems.append(((("score", "target", "at_most"), ("score", "floor")),
                             f"no score can fall to {at_most}: the floor is {hand.floor} (give the score no "
                             "floor, floor: none, or a target the scores can reach)"))
    return problems


def dummy_problems(hand: Hand) -> list[tuple[tuple[tuple, ...], str]]:
    """What the schema cannot say of a hand's dummy (D062): it is the partner of the auction's winner, so
    the hand needs teams of two and an auction."""
    if hand.dummy != "partner_of_declarer":
        return []
    problems = []
    if not isinstance(hand.teams, Teams):
        problems.append(((("dummy",), ("teams",)), "the dummy is the partner of the auction's winner, but the "
                                                   "hand has no teams: give it partners (teams:)"))
    elif any(len(team) != 2 for team in hand.teams.partners):
        problems.append(((("dummy",), ("teams", "partners")), "the dummy is the partner of the auction's winner, "
                                                              "but a team is not of two: give every team two "
                                                              "Communities"))
    if not isinstance(hand.auction, Auction):
        problems.append(((("dummy",), ("auction",)), "the dummy is the partner of the auction's winner, but the "
                                                     "hand has no auction: give it one (auction:)"))
    return problems


def team_problems(hand: Hand, players: int | None) -> list[tuple[tuple[tuple, ...], str]]:
    """What the schema cannot say of a hand's teams (D061): a seat in two teams, or (for `players`) a seat
    the game does not have or a Community in no team."""
    teams = hand.teams
    if not isinstance(teams, Teams):
        return []
    seats = [seat for team in teams.partners for seat in team]
    twice = sorted({seat for seat in seats if seats.count(seat) > 1})
    if twice:
        return [((("teams", "partners"),), f"seat {twice[0]} is in two teams: each Community plays in one")]
    if players is None:
        return []
    beyond = [seat for seat in seats if seat >= players]
    if beyond:
        return [((("teams", "partners"),), f"the teams name seat {beyond[0]}, but a game of {players} has seats 0 "
                                           f"to {players - 1}")]
    missing = [seat for seat in range(players) if seat not in seats]
    if missing:
        return [((("teams", "partners"),), f"Community {missing[0]} is in no team: every Community of a game of "
                                           f"{players} plays in one")]
    return []


def round_sizes(hand: Hand, deal: dict[int, int], players: int, rounds: int) -> list[int]:
    """The cards dealt to each Community in rounds 1 to `rounds` of a complete hand.

    KeyError: the deal table (hand_size: deal) has no entry for `players`; HandSizeError: an
    expression that gives fewer than 1 card, or divides by 0.
    """
    size = hand.hand_size
    if size == "deal":
        return [deal[players]] * rounds
    if type(size) is int:
        return [size] * rounds
    if isinstance(size, ByRound):
        return [size.at(r) for r in range(1, rounds + 1)]
    sizes = [size(r, players, rounds) for r in range(1, rounds + 1)]
    for r, n in enumerate(sizes, 1):
        if n < 1:
            raise HandSizeError(f"the hand size {size.text!r} is {n} in round {r} with {players} players: "
                                "every round deals at least 1 card")
    return sizes


def legacy_hand(hand_size: int | None, cards: int | None, direction: str, rounds: tuple[int, ...] | None) -> Hand:
    """The older house rules hand_size and transfer (cards, direction, rounds), said as a hand."""
    to = None
    if direction != "both" or rounds is not None:
        if rounds is None:
            to = ByRound((direction,))
        else:
            last = max(rounds, default=0)
            to = ByRound(tuple(direction if r in rounds else "none" for r in range(1, last + 1)) + ("none",))
    return Hand(hand_size=hand_size, transfer_cards=None if cards is None else ByRound((cards,)), transfer_to=to)


__all__ = ["ByRound", "Hand", "HAPPY_DAYZ", "SizeExpression", "HandSizeError", "hand_of", "hand_problems",
           "legacy_hand", "score_of", "score_problems", "Teams", "teams_of", "team_problems", "dummy_problems", "WINNERS", "FIRST_BID", "MAX_REDEALS", "DEALERS", "LEADER_WORDS", "TRANSFER_TO", "SEEN_BY", "INTO", "EXPRESSION_NAMES"]
