"""The web table: `happydayz serve` (Starlette, served by uvicorn; the optional extra happydayz[web]).

`mods` keeps every file a request names inside the mods folder; `playground`
checks, explains and simulates power files for the playground page; `app`
is the ASGI application and its JSON API; `static/` holds the pages (plain
HTML, CSS and JavaScript, nothing fetched from elsewhere).
"""
