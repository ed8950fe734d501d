"""Postplay: a correspondence server for five small abstract number games."""
