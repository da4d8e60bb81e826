"""The lines of a player's mail, read as commands: one command or move a line, in the order written.

::

    game g7                   which game (or "[spb g7]" in the subject)
    secret 4kq9-x2mf-8d7r     the seat's secret from the welcome mail
    move 37                   the number of the move this mail answers (or "move 37" in the subject)
    buy upper Market          moves, applied in order while it is the sender's turn
    order pass phase          standing orders: pass phase, pass broke, keep VERB, none
    say good luck             a message to the other players (say to Boris ...: to Boris alone)
    help | status | moves | hint | orders | mail move | mail phase
    record | history [ROUND]  the record so far (no seed until the end), a round's moves and scorings
    admin pause | resume | abort | address SEAT ADDRESS | replace SEAT ADDRESS   (the administrator)
    resign | away until DATE | back          the seat plays on without its person (spbc.pbem.seat)
    watch GAME [CODE] | unwatch GAME [CODE]  any address: the public view after each move (spbc.pbem.watch)

A line is a command when its first word (``Secret:`` as well as ``secret``) is one of the words
above; any other line is a move. Blank lines are skipped. Of the lines ``game``, ``secret`` and
``move`` the first counts (below it may be a pasted mail of the server's, which says ``secret
YOUR-SECRET``: a placeholder, never a secret); a line of the mail counts before its subject.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: Words that begin a command line; every other line is read as a move.
COMMAND_WORDS = ("game", "secret", "move", "order", "orders", "say", "help", "status", "moves", "hint",
                 "mail", "lang", "record", "history", "admin",
                 "resign", "away", "back", "watch", "unwatch")  # spbc.pbem.seat, spbc.pbem.watch
_SUBJECT_GAME = re.compile(r"\[\s*spb\s+([A-Za-z0-9][A-Za-z0-9_-]{0,31})\s*\]", re.I)
_SUBJECT_MOVE = re.compile(r"\bmove\s+#?([0-9]{1,6})\b", re.I)
#: Characters of a line a reply quotes back (a mail's line may be a hundred kilobytes long).
SHOWN = 80
#: What the server's own mails write in place of a secret ("secret YOUR-SECRET"): never a secret.
PLACEHOLDERS = frozenset({"your-secret", "admin-secret", "secret", "your_secret", "<secret>", "..."})
GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")


@dataclass(frozen=True)
class Line:
    """One line that asks for something: a command word and its words, or a move (``word`` "")."""

    number: int  # 1-based, among the sender's own lines
    word: str
    args: str
    text: str  # the line as written (cleaned), cut to SHOWN characters: what a reply quotes of it


@dataclass
class Request:
    """What one mail asks: which game, the secret, the move it answers, and its lines in order."""

    game: str | None = None
    secret: str | None = None
    number: int | None = None
    lines: list[Line] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # about the mail as a whole


def read_request(subject: str, lines: tuple[str, ...], max_lines: int) -> Request:
    """The request of a mail from its subject and its own lines (at most max_lines are read)."""
    request = Request()
    found = _SUBJECT_GAME.search(subject)
    if found:
        request.game = found.group(1)
    number = _SUBJECT_MOVE.search(subject)
    if number:
        request.number = int(number.group(1))
    used = 0
    said_game = said_move = False
    for index, text in enumerate(lines, 1):
        if not text:
            continue
        used += 1
        if used > max_lines:
            request.problems.append(f"only the first {max_lines} lines are read; line {index} and "
                                    "those after it were not")
            break
        shown = text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."
        first, _, rest = text.partition(" ")
        word = first.lower().rstrip(":")
        rest = rest.strip()
        if word == "game" and GAME_ID.fullmatch(rest):
            if not said_game:  # the first wins: a later one is a pasted or quoted mail of the server
                request.game, said_game = rest, True
        elif word == "secret" and rest:
            if request.secret is None and rest.split()[0].lower() not in PLACEHOLDERS:
                request.secret = rest
        elif word == "move" and re.fullmatch(r"#?[0-9]{1,6}", rest):
            if not said_move:
                request.number, said_move = int(rest.lstrip("#")), True
        elif word in COMMAND_WORDS and word not in ("game", "secret", "move"):
            request.lines.append(Line(index, word, rest, shown))
        else:
            request.lines.append(Line(index, "", text, shown))
    return request
