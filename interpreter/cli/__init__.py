from happydayz.cli.app import main

__all__ = ["main"]
