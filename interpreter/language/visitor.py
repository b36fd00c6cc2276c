"""The one way to walk the syntax tree: dispatch on a node's class through a table.

Every walker whose work depends on the class of a node (the checker, the
compiler, the prompts of decisions, the card text, the IR export) is a Visitor.
It names each handler `<walk>_<NodeClass>`: `expr_Compare(self, node, ...)`
handles a Compare in the walk "expr", and `self.handler("expr", node)(node, ...)`
calls it (`visit_<NodeClass>` and `self.visit(node, ...)` for a walker with a
single walk). One handler serves several classes by assignment:

    statement_Move = statement_Draw = ... = _effect

The tables are built once, when the class is made: a handler that names no
class of the syntax tree (`expr_Compar`) fails at import, and a node that no
handler of a walk takes raises UnknownNode instead of falling through to a
default. The dispatch runs when a power is checked, compiled or rendered; the
compiled closures that run during a game never go through it.
"""

from __future__ import annotations

import re
from typing import Any, Callable, ClassVar

from happydayz.language.ast import NODE_CLASSES, Node

_HANDLER_NAME = re.compile(r"([a-z][a-z0-9]*)_([A-Z][A-Za-z0-9]*)")


class UnknownNode(TypeError):
    """A walker met a node of a class that none of its handlers takes."""

    def __init__(self, visitor: Visitor, walk: str, node: object):
        self.visitor_class = type(visitor)
        self.walk = walk
        self.node_class = type(node)
        name = self.node_class.__name__
        super().__init__(f"{self.visitor_class.__name__} does not handle a {name} node in its walk "
                         f"'{walk}' (it has no method {walk}_{name})")


class Visitor:
    """A walker of the syntax tree: its `<walk>_<NodeClass>` methods, found through one table per walk."""

    # walk -> node class -> the name of its handler, for this class and the handlers it inherits
    _handlers: ClassVar[dict[str, dict[type, str]]] = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        tables: dict[str, dict[type, str]] = {}
        for name in dir(cls):
            match = _HANDLER_NAME.fullmatch(name)
            if match is None:
                continue
            walk, class_name = match.groups()
            node_class = NODE_CLASSES.get(class_name)
            if node_class is None:
                raise TypeError(f"{cls.__name__}.{name}: '{class_name}' is not a class of the syntax tree")
            tables.setdefault(walk, {})[node_class] = name
        cls._handlers = tables

    def handler(self, walk: str, node: Node) -> Callable[..., Any]:
        """This walker's method for `node` in `walk`, bound, to be called at once; UnknownNode if there is none.

        A walk calls `self.handler(walk, node)(node, ...)` rather than a method that
        dispatches and calls: the lookup returns before the handler runs, so that a walk
        adds no Python frame per level of the tree (deeply nested code meets the
        recursion limit, S013, no sooner).
        """
        name = self._handlers[walk].get(node.__class__)
        if name is None:
            raise UnknownNode(self, walk, node)
        return getattr(self, name)

    def visit(self, node: Node, *args: Any) -> Any:
        """The walk of a walker that has only one: its handlers are named `visit_<NodeClass>`."""
        return self.handler("visit", node)(node, *args)

    @classmethod
    def handled(cls, walk: str) -> frozenset[type]:
        """The node classes that `walk` takes."""
        return frozenset(cls._handlers.get(walk, ()))
