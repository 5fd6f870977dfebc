"""A PostgreSQL server of the tests' own: a cluster in a temporary directory,
reached only through a unix socket there (no TCP port), stopped and removed
afterwards.

PostgreSQL refuses to run as root (initdb and postgres check the effective
user id), so as root the cluster belongs to an unprivileged account: the
`postgres` account Debian's postgresql package makes, else `nobody`, run
through runuser(1). Its directory must be reachable by that account (every
directory above it searchable), which a chroot's / or a private /tmp may
not be; each candidate parent is tried. Unavailable says exactly why no
server could be started, for the skip message.
"""
import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile

ACCOUNTS = ("postgres", "nobody")
PARENTS = (tempfile.gettempdir(), "/var/tmp", "/run/postgresql", "/dev/shm")


class Unavailable(Exception):
    """No server can be started here; str() says why."""


def bindir():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise Unavailable("PostgreSQL is not installed (Debian package postgresql; scripts/deps installs it)")
    return os.path.dirname(found[-1])


def server_account():
    """(runuser prefix, account name): nothing when not root."""
    if os.getuid() != 0:
        return [], None
    for name in ACCOUNTS:
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return ["runuser", "-u", name, "--"], name
    raise Unavailable(f"running as root, and none of the accounts {', '.join(ACCOUNTS)} exists to run the server")


def reachable_directory(as_user, account, initdb):
    """A new directory the server's account can enter and write, in the first
    parent where that works; Unavailable lists what each parent answered."""
    answers = []
    for parent in PARENTS:
        if not os.path.isdir(parent):
            answers.append(f"{parent}: not a directory")
            continue
        top = tempfile.mkdtemp(prefix="ck-pg-", dir=parent)
        if account:
            shutil.chown(top, account)
        probe = subprocess.run(as_user + ["sh", "-c", 'cd "$1" && touch probe && "$2" --version', "probe",
                                          top, initdb], capture_output=True, text=True)
        if probe.returncode == 0:
            return top
        answers.append(f"{parent}: {probe.stderr.strip() or f'exit {probe.returncode}'}")
        shutil.rmtree(top, ignore_errors=True)
    who = f"the account {account}" if account else "this user"
    raise Unavailable(f"{who} can use no directory for a cluster: " + "; ".join(answers))


@contextlib.contextmanager
def running():
    """Yields (URL, directory) of a fresh server; raises Unavailable before starting one."""
    bins = bindir()
    as_user, account = server_account()
    top = reachable_directory(as_user, account, f"{bins}/initdb")
    data = os.path.join(top, "data")

    def run(*cmd):
        p = subprocess.run(as_user + list(cmd), capture_output=True, text=True, cwd=top)
        if p.returncode != 0:   # the server's own words, not just an exit status
            raise AssertionError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip() or p.stdout.strip()}")
        return p

    try:
        run(f"{bins}/initdb", "-D", data, "-A", "trust", "-U", "ck", "-E", "UTF8", "--no-sync")
        run(f"{bins}/pg_ctl", "-D", data, "-l", os.path.join(top, "server.log"), "-w", "-t", "60",
            "-o", f"-k {top} -c listen_addresses='' -F", "start")
        try:
            yield f"postgresql://ck@/postgres?host={top}", top
        finally:
            subprocess.run(as_user + [f"{bins}/pg_ctl", "-D", data, "-m", "immediate", "stop"],
                           capture_output=True, cwd=top)
    finally:
        shutil.rmtree(top, ignore_errors=True)
