"""The language server of `happydayz lsp` (pygls), the keyword reference and the TextMate grammar.

Needs the `lsp` extra: pip install 'happydayz[lsp]' (the TextMate grammar needs nothing more).
"""
