"""The wire format's two halves agree: what a worker sends is what the parent reads (judge.worker.protocol)."""

from __future__ import annotations

import io
import json

from judge.judging.result import Reply, error_fields, parse
from judge.worker import protocol
from judge.worker.protocol import MESSAGE_CHARS, Requests, encode_request


def _wire(message: dict) -> dict:
    """A worker's reply as the parent decodes it off the pipe."""
    out = io.BytesIO()
    protocol.send(out, message)
    line = out.getvalue()
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    return protocol.decode(line[:-1])


def test_a_result_the_worker_sends_is_the_reply_the_parent_accepts():
    assert parse(_wire(protocol.result(7, {"loss": [1.5, float("nan")]})), 7).value["loss"][0] == 1.5
    assert parse(_wire(protocol.result(7, 1.0)), 8) is None  # another call's answer is refused


def test_an_error_the_worker_sends_keeps_its_fields_cut_to_the_wire_limits():
    fields = protocol.error_fields("E" * 100, "m" * (MESSAGE_CHARS + 5), "start " + "t" * MESSAGE_CHARS + " end")
    reply = parse(_wire(protocol.error(3, fields)), 3)
    assert reply == Reply("error", error=fields)
    assert len(fields["exc"]) == protocol.TYPE_CHARS and len(fields["msg"]) == MESSAGE_CHARS
    assert fields["trace"].endswith(" end") and len(fields["trace"]) == MESSAGE_CHARS  # the innermost frames
    assert error_fields(_wire(protocol.error(3, fields))) == fields


def test_every_start_up_reply_is_recognised_by_its_type_alone():
    for message, kind in ((protocol.locked(), protocol.Reply.LOCKED), (protocol.ready(), protocol.Reply.READY),
                          (protocol.import_error(protocol.error_fields("E", "m", "")), protocol.Reply.IMPORT_ERROR),
                          (protocol.checksums(["ab"]), protocol.Reply.CHECKSUMS)):
        decoded = _wire(message)
        assert [k for k in protocol.Reply if protocol.is_reply(decoded, k)] == [kind]
    assert not protocol.is_reply(["ready"], protocol.Reply.READY) and protocol.decode(b"{no") is None


def test_the_parents_requests_reach_the_worker_as_sent():
    sent = [protocol.verify([{"x": {"kind": "tensor"}}]), protocol.setup("cpu", ["f"]),
            protocol.call(1, {"method": "f", "args": ["$x"], "objects": {}, "hidden": [0.25]})]
    got = list(Requests(io.BytesIO(b"".join(encode_request(m) for m in sent))))
    assert [m["type"] for m in got] == ["verify", "setup", "call"]
    assert got[2]["hidden"] == (0.25,) and got[2]["id"] == 1
    assert json.loads(encode_request(sent[1]).decode()) == {**sent[1], "hidden": 0}
