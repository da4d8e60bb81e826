"""Rules sent as text to another process that cannot read their files (a lab worker on another machine).

>>> sent = send_rules("house.spb")   # the client: its files and those it extends, read once, with their digest
>>> model = sent_model(sent)         # a worker, in any folder: the same checked rules, no file read

The client's loader reads the files through a :class:`spbc.lang.reader.Recording`; the worker's loads them
again through a :class:`spbc.lang.reader.Replay` of what it read, so it makes the same program, whatever
folder it runs in and whatever files it has (a shipped ``base`` included: its text is sent too). The digest
sent is the rules' own (``RulesModel.digest``: sha256 of the files' names and texts, by which a user's rules
get their engine built once into spbc's cache, spbc.engine.backend); the worker refuses texts that give
another (:class:`SentRulesError`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from spbc.lang.load import check_loaded, load_program, resolve_rules
from spbc.lang.model import RulesModel
from spbc.lang.reader import Answers, Recording, Replay


class SentRulesError(RuntimeError):
    """Texts sent as a ruleset that do not give the digest sent with them."""


@dataclass(frozen=True)
class SentRules:
    """A ruleset as text: ``main`` is its main file as the client named it, ``digest`` the rules' digest,
    ``answers`` what the client's loader read (:data:`spbc.lang.reader.Answers`)."""

    main: str
    digest: str
    answers: Answers = field(compare=False, repr=False)

    @property
    def texts(self) -> dict[str, str]:
        """Every file's text by its path on the client."""
        return self.answers[2]


def send_rules(name_or_path: str | Path) -> SentRules:
    """The texts of a shipped ruleset or a rules file, with every file it includes and extends, and their
    digest. Raises spbc.source.diagnostics.RulesError for rules that do not load."""
    main = resolve_rules(name_or_path)
    disk = Recording()
    program = load_program(main, disk)
    return SentRules(str(main), program.digest, disk.answers)


def sent_model(sent: SentRules) -> RulesModel:
    """The checked rules of texts sent (read from no file); SentRulesError when they do not give the
    digest sent with them, RulesError when they do not check."""
    program = load_program(Path(sent.main), Replay(sent.answers))
    if program.digest != sent.digest:
        raise SentRulesError(
            f"the rules sent as {sent.main} do not match their digest: {sent.digest[:16]} was sent, the texts "
            f"give {program.digest[:16]}; the client and this worker may run different versions of spbc")
    return check_loaded(program)
