"""The bots at a server's tables: made by name, asked off the event loop.

Each bot seat gets its own bot from :func:`brisca.agents.bots.make_bot`, by a name in
:data:`brisca.agents.bots.BOTS` (so any bot registered there can sit at a table), and
keeps it for the table's life, since a bot may remember the game. A bot sees
what a person at that seat would: ``observe(hand, seat)`` and the legal actions.
It is asked in a worker thread, so a slow bot (a search) never holds up the
other tables.

>>> import asyncio, brisca
>>> from brisca.agents.bots import HeuristicBot
>>> from brisca.server.tables import new_table
>>> table = new_table("spanish-2p", ["heuristic", "human"], seed=7)
>>> asyncio.run(BotSeats().move(table, 0))  # the heuristic leads its cheapest card
'2O'
>>> HeuristicBot()(brisca.observe(table.hand, 0), brisca.legal_actions(table.hand))
Play(card=Card.parse('2O'))
"""

from __future__ import annotations

import asyncio
import logging
import secrets

from brisca.agents.bots import Bot, make_bot
from brisca.game.actions import Action
from brisca.game.engine import legal_actions, observe
from brisca.game.errors import StateError
from brisca.server.tables import Table

__all__ = ["BotSeats"]

log = logging.getLogger("brisca.server")


class BotSeats:
    """The bots of one process, one per table and seat."""

    def __init__(self) -> None:
        self._bots: dict[tuple[str, int], tuple[str, Bot]] = {}

    def bot(self, table: Table, seat: int) -> Bot:
        """The bot playing `seat` at `table`, made on first use.

        Raises:
            StateError: a person, not a bot, sits there.
        """
        name = table.seats[seat].bot
        if name is None:
            raise StateError(f"seat {seat} of table {table.id} is no bot's")
        known = self._bots.get((table.id, seat))
        if known is None or known[0] != name:
            known = (name, make_bot(name, seed=secrets.randbits(64)))
            self._bots[table.id, seat] = known
        return known[1]

    # --8<-- [start:choose]
    def choose(self, table: Table, seat: int) -> str:
        """The bot's action at `seat`, in notation, from that seat's view only.

        A bot that fails, or answers with an action that is not legal, is logged and
        its seat plays the first legal action instead, so a table never stalls.
        """
        hand = table.hand
        assert hand is not None and hand.to_act == seat
        legal = legal_actions(hand)
        try:
            action: Action = self.bot(table, seat)(observe(hand, seat), legal)
            if action in legal:
                return str(action)
            log.error("the %s bot of table %s chose %r", table.seats[seat].bot, table.id, action)
        except Exception:
            log.exception("the %s bot of table %s failed", table.seats[seat].bot, table.id)
        return str(legal[0])

    async def move(self, table: Table, seat: int) -> str:
        """:meth:`choose`, in a worker thread."""
        return await asyncio.to_thread(self.choose, table, seat)

    # --8<-- [end:choose]

    def forget(self, table_id: str) -> None:
        """Drop the bots of a table that is over."""
        for key in [key for key in self._bots if key[0] == table_id]:
            del self._bots[key]
