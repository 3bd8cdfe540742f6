"""A reference game server and web table: ``pip install 'brisca[serve]'``, then ``brisca serve``.

The server deals, checks every move a browser sends, shows each seat only what
it may see and scores, all through the library; it holds no rule of its own.

- :mod:`brisca.server.tables`: a table, a hand or a whole match with its seats,
  as an immutable value: who sits where, each seat's view and events, the
  records of the finished hands;
- :mod:`brisca.server.store`: where tables live, behind one small interface,
  in memory or in a SQLite file that survives a restart;
- :mod:`brisca.server.protocol`: the messages, read and written as the
  library's own JSON;
- :mod:`brisca.server.bot_seats`: the bots that play their seats, off the
  event loop;
- :mod:`brisca.server.app`: the Starlette application that serves the web
  table and the WebSocket (this one needs the ``serve`` extra).

Nothing is imported here, so that ``import brisca.server`` needs no web framework.
"""
