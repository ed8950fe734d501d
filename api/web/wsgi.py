"""The WSGI entry point for gunicorn: `api.web.wsgi:app`, configured from the environment."""
from api.web import create_app

app = create_app()
