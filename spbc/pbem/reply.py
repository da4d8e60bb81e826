"""The sender's own lines of a mail that may be a reply: quotes, attributions, signatures, forwards left out.

Mail clients mark the earlier mail of a reply in a few shapes, in the sender's language:

- quoted lines (``> ...``), skipped wherever they are;
- an attribution before the quote: ``On Mon, 1 Dec 2026 at 10:00, Anna <anna@a.test> wrote:``,
  ``Am ... schrieb Anna:``, ``Le ... a écrit :``, ``El ... escribió:``, ``Il ... ha scritto:``,
  ``Op ... schreef ...:``, ``Em ... escreveu:``, ``在 ... 写道：``, ... (Gmail wraps a long one over two
  lines);
- a header block before an earlier mail that is not quoted (Outlook): ``From: ...`` then ``Sent:``,
  ``To:``, ``Subject:`` (``Von:``/``Gesendet:``, ``De :``/``Envoyé :``, ...);
- a separator: ``-----Original Message-----`` and its translations, ``---------- Forwarded message
  ---------``, ``Begin forwarded message:``, a line of underscores.

An attribution, header block or separator followed by quoted lines only introduces the quote: it is
dropped and reading goes on, so a move written below the quote (bottom-posting) is read. Followed by
anything else it begins the earlier mail itself, and nothing from there on is read. Every test is on a
line of at most :data:`MARK_CHARS` characters, with patterns that look at each character a bounded
number of times: a mail of 250 kB of one line costs no more than reading it.
"""

from __future__ import annotations

import re

#: Longer lines are never a mark of a reply (an attribution is a name, an address and a date).
MARK_CHARS = 400
#: Own lines that are not blank kept of one mail at most (the server reads far fewer).
MAX_LINES = 10_000
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SIGNATURES = ("-- ", "--", "\u2014 ")
_VERBS = re.compile(
    r"(\bwrote|\bschrieb|\ba [ée]crit|\bescribi[óo]|\bha scritto|\bschreef|\bescreveu|\bskrev|\bkirjoitti|"
    r"\bnapisa[łl]\(?a?\)?|\bнаписал\(?а?\)?|\bírta|写道|寫道|のメッセージ|書きました)", re.I)
#: Words an attribution wrapped over two lines begins with ("On", "Am", "Le", "El", "Il", "Op", "Em", ...).
_LEADS = re.compile(r"(on|am|le|el|il|op|em|den|dne|w dniu|в|在|于)\b", re.I)
_SEPARATORS = re.compile(
    r"(-{2,}\s*(original message|forwarded message|weitergeleitete nachricht|urspr[üu]ngliche nachricht|"
    r"message d'origine|message transf[ée]r[ée]|mensaje original|mensaje reenviado|messaggio originale|"
    r"messaggio inoltrato|oorspronkelijk bericht|doorgestuurd bericht|mensagem original|mensagem encaminhada|"
    r"原始邮件|原始郵件|转发邮件|轉寄郵件)\s*-*|begin forwarded message:|_{10,})\s*", re.I)
_FROM = re.compile(r"\*?(from|von|de|da|van|fra|fr[åa]n|od|発信者|发件人|寄件者)\s*\*?\s*[:：]", re.I)
_HEADER = re.compile(
    r"\*?(sent|date|to|cc|subject|gesendet|datum|an|betreff|envoy[ée]|[àa]|objet|enviado|enviada|fecha|para|"
    r"asunto|assunto|inviato|data|oggetto|verzonden|aan|onderwerp|发送时间|日期|收件人|抄送|主题|送信日時|件名)"
    r"\s*\*?\s*[:：]", re.I)


def own_lines(text: str) -> list[str]:
    """The sender's own lines of text, cleaned (control characters out, blanks collapsed; blank lines
    kept as ""), up to the signature or the earlier mail of a reply; quoted lines left out."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    own: list[str] = []
    at = written = 0
    while at < len(lines) and written < MAX_LINES:
        raw = lines[at]
        if raw in _SIGNATURES:
            break
        if _quoted(raw):
            at += 1
            continue
        span = _mark(lines, at)
        if span:
            if not _quote_follows(lines, at + span):
                break
            at += span
            continue
        own.append(" ".join(_CONTROL.sub(" ", raw.replace("\u00a0", " ")).split()))
        written += 1 if own[-1] else 0
        at += 1
    return own


def _quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def _quote_follows(lines: list[str], at: int) -> bool:
    """Whether the first line at or after at that is not blank is a quoted one."""
    for line in lines[at: at + 50]:
        if line.strip():
            return _quoted(line)
    return False


def _mark(lines: list[str], at: int) -> int:
    """How many lines from at are an attribution, a header block or a separator (0: none)."""
    line = lines[at].strip()
    if not line or len(line) > MARK_CHARS:
        return 0
    if _SEPARATORS.fullmatch(line):
        return 1
    if _attribution(line):
        return 1
    if at + 1 < len(lines) and _LEADS.match(line) and not line.endswith((":", "：")):
        joined = line + " " + lines[at + 1].strip()
        if len(joined) <= MARK_CHARS and _attribution(joined):
            return 2
    if _FROM.match(line):
        span = 1
        while at + span < len(lines) and span < 8 and _HEADER.match(lines[at + span].strip()[:MARK_CHARS]):
            span += 1
        if span > 1:
            return span
    return 0


def _attribution(line: str) -> bool:
    """Whether one line is a reply's attribution: it ends in a colon and holds the verb "wrote" of some
    language; a line of the say command never is one."""
    if not line.endswith((":", "：")) or line[:4].lower() == "say ":
        return False
    return _VERBS.search(line) is not None
