"""happydayz: a rules language and a generic trick-taking kernel for Happy DayZ."""

__version__ = "0.1.0"
