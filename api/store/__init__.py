"""Redis: every key in one layout (`keys`), the games' documents with optimistic concurrency
(`games`), accounts, ratings, playtests, sweeps, webhooks and the workers' heartbeats, the
archive of finished games, the connection and the embedded server. It imports nothing above the
record layer: what it needs from the services (the events a change derives, a playtest's
report) is given to it when a store is made."""
