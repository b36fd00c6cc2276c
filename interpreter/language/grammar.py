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
