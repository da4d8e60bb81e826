"""Play by email: a plain-text game server that reads players' mails and answers each with their view.

``mailin`` reads a message (sender, subject, the text of its body), ``commands`` reads the lines of
that text, ``store`` keeps games in SQLite, ``server`` applies one mail in one transaction and
queues the replies, ``sitting`` plays a stored game on the one table (spbc.table.table), ``lines``,
``orders``, ``deadlines``, ``admin`` and ``newgame`` are the server's parts, ``letters`` and ``text`` write every mail, ``transport`` sends them (an outbox Maildir or
SMTP), ``config`` reads the configuration file. ``spb pbem`` (frontends/pbem_cmds.py) drives it.
"""
