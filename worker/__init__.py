"""RQ job functions and the worker entry point: thin, they call api.play, api.bots, api.store."""
