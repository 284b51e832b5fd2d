"""``meta --scheduler``: the address is checked (scheme, host, port) before anything
connects, a port where no scheduler answers is given up after the connection timeout, and
no failure shows a traceback; ``--scheduler ''`` is a usage error, not a local run."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from meta_lists import sample_folder

from armybuilder.cli import main
from armybuilder.core.errors import InputError
from armybuilder.meta.runners import scheduler_address


@pytest.mark.parametrize(
    ("given", "address"),
    [
        ("tcp://10.0.0.5:8786", "tcp://10.0.0.5:8786"),
        ("10.0.0.5:8786", "tcp://10.0.0.5:8786"),
        ("TCP://sched.example.org:1", "tcp://sched.example.org:1"),
        ("tcp://[::1]:8786", "tcp://[::1]:8786"),
        (" tcp://host-1:65535 ", "tcp://host-1:65535"),
    ],
)
def test_good_addresses_are_normalised(given, address):
    assert scheduler_address(given) == address


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("", "needs an address"),
        ("foo://bar", "tcp:// only"),
        ("inproc://x", "tcp:// only"),
        ("tls://127.0.0.1:1", "tcp:// only"),
        ("ucx://127.0.0.1:1", "tcp:// only"),
        ("ws://127.0.0.1:1", "tcp:// only"),
        ("tcp://localhost", "a host and a port"),
        ("tcp://host:0", "a host and a port"),
        ("tcp://host:65536", "a host and a port"),
        ("tcp://[::1]:99999", "a host and a port"),
        ("tcp://a b:1", "a host and a port"),
        ("tcp://user@host:1", "a host and a port"),
        ("tcp://host:1/path", "a host and a port"),
        ("tcp://-bad-.example:1", "a host and a port"),
        ("tcp://\x1b[2Jx:1", "a host and a port"),
    ],
)
def test_bad_addresses_are_refused_before_connecting(given, words):
    with pytest.raises(InputError, match=words) as caught:
        scheduler_address(given)
    assert "\x1b" not in str(caught.value)


@pytest.fixture(scope="module")
def lists(tmp_path_factory):
    return sample_folder(tmp_path_factory.mktemp("lists"))


def _meta(capsys, lists, tmp_path, *extra):
    started = time.monotonic()
    code = main(["meta", str(lists), "--games", "2", "-o", str(tmp_path / "m.pdf"), *extra])
    out, err = capsys.readouterr()
    return code, out, err, time.monotonic() - started


@pytest.mark.parametrize("address", ["", "   ", "foo://bar", "inproc://x", "tls://127.0.0.1:1", "ucx://127.0.0.1:1"])
def test_the_command_refuses_at_once_and_plays_nothing(lists, tmp_path, capsys, address):
    code, out, err, _ = _meta(capsys, lists, tmp_path, "--scheduler", address)
    assert code == 2 and out == ""
    assert "Traceback" not in err and "Exception ignored" not in err and "internal error" not in err
    assert not (tmp_path / "m.results.jsonl").exists()  # nothing was played locally either


def test_a_refused_port_is_said_at_once(lists, tmp_path, capsys):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, _, err, _ = _meta(capsys, lists, tmp_path, "--scheduler", f"tcp://127.0.0.1:{port}")
    assert code == 2 and "cannot reach the Dask scheduler" in err and "refused" in err


def test_a_port_where_no_scheduler_answers_gives_up_after_the_timeout(lists, tmp_path, capsys):
    pytest.importorskip("distributed")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    accepted: list[socket.socket] = []

    def accept() -> None:  # accepts and never says a word, as a hung service would
        while True:
            try:
                accepted.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    try:
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        code, _, err, _ = _meta(capsys, lists, tmp_path, "--scheduler", address, "--connect-timeout", "1")
    finally:
        server.close()
        for conn in accepted:
            conn.close()
    assert code == 2 and "no Dask scheduler answered" in err and "within 1 s" in err
    assert "Traceback" not in err and "Exception ignored" not in err


def test_the_connection_timeout_is_bounded(lists, tmp_path, capsys):
    code, _, err, _ = _meta(capsys, lists, tmp_path, "--scheduler", "tcp://127.0.0.1:1", "--connect-timeout", "0")
    assert code == 2 and "--connect-timeout" in err


def test_a_connection_timeout_without_a_scheduler_is_refused(lists, tmp_path, capsys):
    """``--connect-timeout`` only means something with ``--scheduler``: alone it is a mistake
    (the games would run locally and the wait be silently ignored), refused before any game."""
    code, out, err, _ = _meta(capsys, lists, tmp_path, "--connect-timeout", "10")
    assert code == 2 and out == "" and "--connect-timeout" in err and "--scheduler" in err
    assert "Traceback" not in err and not (tmp_path / "m.results.jsonl").exists()
