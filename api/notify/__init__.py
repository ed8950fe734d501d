"""Telling players' accounts what happened in their games: the events a change calls for
(`events`), the webhook endpoints an account registers (`endpoints`), where they may point
(`addresses`) and their delivery by the workers, signed per the Standard Webhooks specification
(`delivery`); and, for the person away from the board, the channels each event fans out to
(`fanout`): Web Push (`push`), the inbox (`inbox`) and e-mail, each sender saying how a delivery
went (`outcome`)."""
