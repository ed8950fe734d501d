"""The game service: the typed game record (`record`), the one code path that changes a game
(`service`), and its refusals (`errors`). Nothing here knows HTTP; `api/web` maps the refusals.
Import the modules themselves (`from api.play import service`): the store imports `record`, and
`service` imports the store."""
