"""Writing a file so that a crash never leaves it half written: the one writer of files.

:func:`write_atomically` writes the new contents to a temporary file in the
same directory, flushes it to disk (``os.fsync``), then puts it in place
with ``os.replace``, which is atomic on POSIX and Windows: at every moment
the path holds either the whole old file or the whole new one, even if the
process is killed or the machine loses power mid-write. Every file that
pylayer writes goes through it (``tests/reliability/test_round3_io.py``
checks the package's source for other writers).
"""
import contextlib
import os
import secrets
import stat

__all__ = []


def _temporary(directory, name):
    """``(file descriptor, path)`` of a new, empty file next to ``name``, made as ``open``
    makes a file (its mode from the umask)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        path = os.path.join(directory, f".{name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(path, flags, 0o666), path
        except FileExistsError:
            continue


def _sync_directory(directory):
    """Flush the directory entry of a replaced file, where the OS allows it (POSIX)."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):       # some file systems refuse to sync a directory
        handle = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def write_atomically(path, data):
    """Put ``data`` (bytes) in the file ``path``, atomically; missing directories are made.

    A symbolic link is written through (its target is replaced); an existing
    file keeps its permission bits. A path that exists but is no regular
    file (a device such as ``os.devnull``, a pipe) is written in place. On
    any error the temporary file is removed and ``path`` is unchanged.
    """
    target = os.path.realpath(path)
    if os.path.exists(target) and not os.path.isfile(target):
        with open(target, "wb") as stream:
            stream.write(data)
        return
    directory, name = os.path.split(target)
    os.makedirs(directory, exist_ok=True)
    handle, temporary = _temporary(directory, name)
    try:
        with open(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise
    _sync_directory(directory)
