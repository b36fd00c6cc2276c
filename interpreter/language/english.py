"""The English of the power language, each word written once.

The prompts of decisions (render.py) and the card text of a power
(cardtext.py) take their words for zones, comparisons, attributes and
built-in names from here. The small helpers of English grammar (articles,
plurals, lists) live here too.
"""

from __future__ import annotations

# A Community's zones. `held` is the cards it can play: its hand and its Transfer zone, and
# a card taken from `held` comes from one or the other.
ZONE_WORDS = {"hand": "hand", "transfer": "Transfer zone", "held": "hand and Transfer zone",
              "expedition": "Expedition zone"}
ZONE_FROM_WORDS = {**ZONE_WORDS, "held": "hand or Transfer zone"}

COMPARISON_WORDS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
                    ">=": "is at least", "in": "is among", "not in": "is not among"}
# A card's value or Survivors compared with a number: "with a value of at most 3".
ATTRIBUTE_COMPARISON_WORDS = {"==": "of", "!=": "other than", "<": "below", "<=": "of at most", ">": "above",
                              ">=": "of at least"}
ATTRIBUTE_NOUNS = {"value": "value", "survivors": "Survivors", "faction": "Faction"}

# The built-in names, each as a noun phrase (the card text says more for `leader`, `void` and `side`).
NAMES = {
    "self": "you", "others": "the other Communities", "everyone": "every Community", "factions": "the Factions in play",
    "reserve": "the Reserve", "trick": "the cards of this trick", "encounter": "the Encounter card",
    "led": "the Faction led", "leader": "the Community that led", "this": "this card", "played": "the card played",
    "void": "its player has no card of the Faction led", "round": "the round number", "players": "the number of Communities",
    "it": "it", "true": "yes", "false": "no", "side": "the side of the board",
    "winner": "the Community that won the trick", "winning": "the winning card",
    "entered": "the card that entered", "mover": "the Factions whose power moved the card (none for a won trick)",
    "before": "the cards played earlier in this trick", "sides": "the + side or the − side",
    "plus": "the + side", "minus": "the − side",
    "offered": "the number (or level) of the bid", "offered_faction": "the Faction of the bid",
    "passing": "the bid is a pass", "bids_so_far": "the number of bids made so far in the auction",
    "auction_winner": "the Community that won the auction", "winning_bid": "the winning bid's number (or level)",
    "winning_faction": "the winning bid's Faction", "dealer": "the dealer", "dummy": "the dummy",
    "partner": "your partner", "team": "the Communities of your team",
    "auction_stage": "the auction's stage", "turned_up": "the turned-up card",
    # where a card that entered a zone came from (`on enter expedition`, `on enter hand`)
    "from_trick": "the card came from a won trick", "from_hand": "the card came from a hand",
    "from_transfer": "the card came from a Transfer zone", "from_expedition": "the card came from an Expedition zone",
    "from_reserve": "the card came from the Reserve", "from_discard": "the card came from the discard pile",
}
# The sides of a trick, each as a noun phrase.
SIDE_WORDS = {"plus": "the + side", "minus": "the − side"}

# The moments the new hooks run at, as the card text opens their paragraph (`you`: who the hook acts for).
HOOK_TIMING_WORDS = {
    "play": "when a card of this Faction is played",
    "lead": "when a card of this Faction leads a trick",
    "trick": "when a trick is won, for each card of this Faction you played to it",
    "after_trick": "after every trick, for the Community that won it",
    "start_of_round": "at the start of the round, after the deal",
    "after_transfer": "after the Transfer, before the round's first trick (the bidding moment)",
    "end_of_game": "at the end of the game, after the last count",
    "enter_expedition": "whenever a card enters your Expedition zone (not at the deal)",
    "enter_hand": "whenever a card enters your hand (not at the deal)",
}

# What a lasting counter or mark keeps, by how long it lasts.
LIFETIME_WORDS = {("counter", "round"): ", back to 0 each round", ("counter", "game"): "",
                  ("mark", "round"): ", not set at first and cleared each round", ("mark", "game"): ", not set at first"}
#: A mark holding a Faction, a Card, a Community or a Side (`mark trump: Faction`): its noun, and its value at first.
HOLDS_NOUNS = {"Faction": "Faction", "Card": "card", "Community": "Community", "Side": "side"}
HOLDS_LIFETIME_WORDS = {**{(t, "game"): f", {first} at first" for t, first in
                           (("Faction", "none"), ("Card", "none"), ("Community", "Community 0"), ("Side", "+"))},
                        **{(t, "round"): f", {first} at first and back to {first} each round" for t, first in
                           (("Faction", "none"), ("Card", "none"), ("Community", "Community 0"), ("Side", "+"))}}

#: How a variant without a printed title is marked after the power's name.
VARIANT_MARKS = {"basic": "", "fixed": "", "positive": " (+)", "negative": " (-)"}


def variant_label(name: str, variant: str | None, title: str | None = None) -> str:
    """A power as a player names it: "Name (TITLE)" for a titled variant, else "Name", "Name (+)" or "Name (-)"."""
    if title:
        return f"{name} ({title})"
    return name + VARIANT_MARKS.get(variant or "basic", f" ({variant})")


# ------------------------------------------------------------------ grammar


def cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def article(word: str) -> str:
    return "an" if word[:1].upper() in "AEIOU" else "a"


ARTICLES = ("The", "A", "An")


def has_article(name: str) -> bool:
    """A name that starts with an article ("The Excuse"): a card of it is "a card of The Excuse"."""
    return name.split(" ", 1)[0] in ARTICLES and " " in name


def singular(name: str) -> str:
    """One card of a Faction: the Faction's name in the singular (English rules only).

    A name with an article of its own is not made singular nor given another article: "card of The Excuse".
    """
    if has_article(name):
        return f"card of {name}"
    head, _, last = name.rpartition(" ")
    if last.endswith("ren") and len(last) > 4:
        last = last[:-3]
    elif last.endswith("s") and not last.endswith(("ss", "us", "is")) and len(last) > 1:
        last = last[:-1]
    return f"{head} {last}" if head else last


def plural(name: str) -> str:
    """Several cards of a Faction: the name as written, or made plural when it is singular ("Bombs", "Glasses")."""
    if has_article(name):
        return f"cards of {name}"
    if singular(name) != name:
        return name
    return name + ("es" if name.endswith(("s", "x", "ch", "sh")) else "s")


def join_words(items: list[str], last: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def survivors(n: int) -> str:
    return f"{n} Survivor" + ("" if n == 1 else "s")
