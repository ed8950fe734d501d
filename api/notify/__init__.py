"""Telling players' accounts what happened in their games: the events a change calls for
(`events`), the webhook endpoints an account registers (`endpoints`) and their delivery by the
workers, signed per the Standard Webhooks specification (`delivery`)."""
