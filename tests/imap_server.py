"""A real IMAP server for the mail tests: Dovecot from the distribution, on loopback, in a folder of the test's.

It listens with implicit TLS and with STARTTLS on free ports, with a certificate made for the run (its own CA
file for the client), one mailbox user, and its mail in a Maildir under the folder. .ci/run installs
Dovecot when it is missing; without it the tests that need it are skipped and say why.
"""

from __future__ import annotations

import contextlib
import imaplib
import os
import pwd
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

USER, PASSWORD = "spb", "imap-s3cret"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Dovecot:
    folder: Path
    tls_port: int
    starttls_port: int

    @property
    def cafile(self) -> Path:
        return self.folder / "cert.pem"

    @property
    def conf(self) -> Path:
        return self.folder / "dovecot.conf"

    def start(self) -> None:
        subprocess.run(["dovecot", "-c", str(self.conf)], check=True)
        deadline = time.monotonic() + 30
        while True:  # until both listeners take connections
            try:
                for port in (self.tls_port, self.starttls_port):
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        subprocess.run(["doveadm", "-c", str(self.conf), "stop"], check=False, capture_output=True)
        pid = self.folder / "run" / "master.pid"
        deadline = time.monotonic() + 30
        while pid.exists() and time.monotonic() < deadline:
            time.sleep(0.05)

    def client(self) -> imaplib.IMAP4_SSL:
        """A client of the test's own, as a mail transfer agent or a person's mail program would be."""
        context = ssl.create_default_context(cafile=str(self.cafile))
        connection = imaplib.IMAP4_SSL("127.0.0.1", self.tls_port, ssl_context=context, timeout=30)
        connection.login(USER, PASSWORD)
        return connection

    def deliver(self, data: bytes, mailbox: str = "INBOX") -> None:
        with_client = self.client()
        try:
            status, answer = with_client.append(mailbox, None, None, data)
            assert status == "OK", answer
        finally:
            with_client.logout()

    def clear(self) -> None:
        """Every mail of every mailbox gone, and every mailbox but the inbox: a fresh start for a test."""
        with_client = self.client()
        try:
            status, listed = with_client.list()
            for entry in listed if status == "OK" else []:
                name = entry.decode().rsplit(" ", 1)[-1].strip('"') if isinstance(entry, bytes) else ""
                if name and name != "INBOX":
                    with_client.delete(name)
            with_client.select("INBOX")
            with_client.uid("STORE", "1:*", "+FLAGS", "(\\Deleted)")
            with_client.expunge()
        finally:
            with_client.logout()

    def flags(self, mailbox: str = "INBOX") -> list[str]:
        """The flags of every mail in mailbox, oldest first."""
        with_client = self.client()
        try:
            with_client.select(mailbox)
            status, data = with_client.uid("FETCH", "1:*", "(FLAGS)")
            return [item.decode() for item in data if isinstance(item, bytes)] if status == "OK" else []
        finally:
            with_client.logout()


@contextlib.contextmanager
def dovecot() -> Iterator[Dovecot]:
    """A Dovecot of its own, started, stopped and removed after; skips the test when it is not installed.

    Its folder is a short one of its own under the system's temporary folder, open to read, since its mail
    processes run as Dovecot's user (pytest's folders are root's alone) and its sockets' paths must be short."""
    if shutil.which("dovecot") is None or shutil.which("openssl") is None:
        pytest.skip("Dovecot (dovecot-imapd) is not installed; .ci/run installs it")
    folder = Path(tempfile.mkdtemp(prefix="spb-dovecot-"))
    folder.chmod(0o755)
    server = _configured(folder)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _configured(folder: Path) -> Dovecot:
    """Dovecot's certificate, user and configuration in folder."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(folder / "key.pem"),
                    "-out", str(folder / "cert.pem"), "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    (folder / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n", encoding="utf-8")
    home = folder / "home"
    home.mkdir()
    if os.geteuid() == 0:  # Dovecot gives no mail process to root: its own users do the work
        internal, login, mail_user = "dovecot", "dovenull", pwd.getpwnam("dovecot")
        os.chown(home, mail_user.pw_uid, mail_user.pw_gid)
    else:
        internal = login = pwd.getpwuid(os.geteuid()).pw_name
        mail_user = pwd.getpwuid(os.geteuid())
    server = Dovecot(folder, _free_port(), _free_port())
    server.conf.write_text(f"""
base_dir = {folder}/run
state_dir = {folder}/state
log_path = {folder}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = required
ssl_cert = <{folder}/cert.pem
ssl_key = <{folder}/key.pem
auth_mechanisms = plain login
default_internal_user = {internal}
default_login_user = {login}
first_valid_uid = {mail_user.pw_uid}
mail_location = maildir:~/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {folder}/passwd
}}
userdb {{
  driver = static
  args = uid={mail_user.pw_uid} gid={mail_user.pw_gid} home={home}
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {server.starttls_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {server.tls_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
""", encoding="utf-8")
    return server
