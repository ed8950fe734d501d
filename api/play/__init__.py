"""The game service: the one code path that changes a game (`service`), and every change beside
it: offers, chat, vacations, export and import, the workers' background thread. The record it
changes and its refusals are the layer below (`api.record`); nothing here knows HTTP, and
`api/web` maps the refusals. Import the modules themselves (`from api.play import service`)."""
