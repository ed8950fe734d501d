"""The WSGI entry point for gunicorn: `api.web.wsgi:app`, configured from the environment.

Once the app is made, the garbage collector's view of everything it loaded is frozen
(`gc.freeze`): the modules, schemas and engines are there for the process' life, yet each full
collection would walk them all, with no thread of the process answering meanwhile; frozen, a
full collection walks only what requests left behind."""

import gc

from api.web import create_app

app = create_app()
gc.collect()  # what the import left as garbage goes first, not frozen with the rest
gc.freeze()
