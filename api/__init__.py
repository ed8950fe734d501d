"""Postplay: a correspondence server for small abstract number games."""
