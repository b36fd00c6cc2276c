"""The grammar of power files (grammar/powers.lark) and the Lark parser built from it, once."""

from __future__ import annotations

from functools import lru_cache

from lark import Lark

from happydayz.base.resources import data_dir


@lru_cache(maxsize=None)
def grammar_text() -> str:
    return (data_dir("grammar") / "powers.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def lark_parser(strict: bool = False) -> Lark:
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=False,
        strict=strict,
        cache=not strict,  # the built parser is cached on disk: building it is most of the load time
    )


@lru_cache(maxsize=None)
def leading_phrases(rule: str) -> tuple[str, ...]:
    """The keywords each alternative of a grammar rule starts with, in the grammar's order, each phrase once.

    For "hook": ("on win", "on play", …, "at end of game"); an alternative that starts with another rule
    (a stmt that is an if_stmt) gives that rule's phrases. Read from the parser, so the hints that list
    what may be written cannot go stale when the grammar grows.
    """
    parser = lark_parser()
    phrases: list[str] = []
    for alternative in (r for r in parser.rules if r.origin.name == rule):
        words: list[str] = []
        for symbol in alternative.expansion:
            pattern = parser.get_terminal(symbol.name).pattern if symbol.is_term else None
            if pattern is None or pattern.type != "str" or not pattern.value.isalpha():
                break
            words.append(pattern.value)
        if words:
            found = (" ".join(words),)
        elif alternative.expansion and not alternative.expansion[0].is_term:
            found = leading_phrases(alternative.expansion[0].name)
        else:
            found = ()
        phrases.extend(p for p in found if p not in phrases)
    return tuple(phrases)


def hooks() -> tuple[str, ...]:
    """Every hook as it is written: "on win", "after trick", "at start of round", …"""
    return leading_phrases("hook")


def statement_words() -> tuple[str, ...]:
    """The words a statement can start with, in the grammar's order."""
    return tuple(dict.fromkeys(phrase.split()[0] for phrase in leading_phrases("stmt")))
