"""Players: accounts, their sign-in and personal tokens with scopes, recovery codes and
settings (`accounts`). Nothing here knows HTTP; the refusals are `api.record.errors`'."""
