#!/usr/bin/env python3
"""Records what segment-analytics-python sends for a fixed list of calls, into a fixture a Swift test reads.

WHAT IT DOES
  1. Makes a virtualenv under a scratch directory (--scratch, or a temporary directory removed afterwards; never
     inside the repository) with the exact packages of requirements.txt beside this script
     (segment-analytics-python 2.4.0 and its dependencies, pinned).
  2. Runs itself again with that virtualenv's Python, which:
     - starts a recording HTTP server on 127.0.0.1 (http.server, an ephemeral port) that keeps every POST
       (method, path, headers, body; a gzip body is decompressed) and answers 200 `{"success": true}`;
     - makes each call of CALLS below on a `Client(WRITE_KEY, host=<the server>, sync_mode=True, gzip=False)`:
       one request per call, posted before the call returns;
     - checks that every request has the same envelope (path, headers, body keys, writeKey) and that each
       message's own text is a part of the body as the client serialised it;
     - makes the same calls again on a default (threaded, batching) client with gzip=True, flushes, and checks
       that it sent the very same messages (so sync mode and gzip change neither the messages nor the envelope
       apart from `Content-Encoding`);
     - writes the fixture (--output, default segment-python-<version>.json beside this script).
  The values that differ between runs (the envelope's `sentAt`, the generated messageId and timestamp of the
  calls that give none, the server's port) are checked against their format at record time and written as
  placeholders, so that running the script twice writes the same file.

REGENERATE (from the repository root; python3 >= 3.9 with venv, network access to PyPI)
  python3 Tests/Fixtures/SegmentPythonWire/record.py
  python3 Tests/Fixtures/SegmentPythonWire/record.py --check   # exits 1 when the committed fixture differs
  python3 Tests/Fixtures/SegmentPythonWire/record.py --scratch /tmp/segment-wire   # keeps the virtualenv

FIXTURE CONVENTIONS (the `arguments` of each call are the client method's keyword arguments, as JSON)
  {"$datetime": "2026-01-02T03:04:05.678901+00:00"}  a datetime.datetime (datetime.fromisoformat); without an
                                                     offset it is a naive datetime
  {"$date": "2026-01-02"}                            a datetime.date
  Everything else is the JSON value itself.
"""

import argparse
import copy
import datetime
import gzip
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
VERSION = "2.4.0"
WRITE_KEY = "WRITE_KEY_123"

# The placeholders written for values that differ between runs, and what the recorded value must match.
SENT_AT_PLACEHOLDER = "<sentAt: now, UTC, microseconds, +00:00>"
SENT_AT_FORMAT = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$"
GENERATED_MESSAGE_ID = "<messageId: uuid4>"
GENERATED_MESSAGE_ID_FORMAT = r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"
GENERATED_TIMESTAMP = "<timestamp: now, UTC, milliseconds, +00:00>"
GENERATED_TIMESTAMP_FORMAT = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$"
HOST_PLACEHOLDER = "127.0.0.1:<port>"


def dt(text):
    return {"$datetime": text}


CONTEXT = {
    "ip": "203.0.113.7",
    "userAgent": "Mozilla/5.0 (X11; Linux x86_64) Example/1.0",
    "locale": "de-DE",
    "timezone": "Europe/Berlin",
    "library": {"name": "caller-library", "version": "9.9.9"},
    "page": {"path": "/checkout", "url": "https://shop.example/checkout?step=2", "referrer": "https://example.com/"},
    "campaign": {"name": "winter", "source": "newsletter", "medium": "email"},
    "device": {"id": "device-1", "type": "server"},
    "traits": {"plan": "pro"},
    "nested": {"level1": {"level2": {"level3": [1, "two", None]}}},
}

INTEGRATIONS = {"All": False, "Mixpanel": True}

# Every JSON type, and the strings and numbers whose text a serialiser may write differently.
EVERY_TYPE = {
    "string": "shoes",
    "empty_string": "",
    "int": 42,
    "negative_int": -7,
    "zero": 0,
    "big_int": 9007199254740993,
    "float": 49.99,
    "float_integral": 2.0,
    "float_small": 0.000001,
    "float_large": 1e21,
    "true": True,
    "false": False,
    "null": None,
    "object": {"name": "shoes", "size": 42, "tags": ["a", "b"], "inner": {"deep": True}},
    "empty_object": {},
    "array": ["a", 1, 2.5, True, None, {"k": "v"}, [1, 2]],
    "empty_array": [],
    "non_ascii": "Grüße aus Köln, 東京, emoji 🚀",
    "escapes": "quote \" backslash \\ slash / newline \n tab \t bell \u0007",
    "clé_non_ascii": "key with an accent",
    "datetime_utc": dt("2026-01-02T03:04:05.678901+00:00"),
    "datetime_offset": dt("2026-01-02T05:04:05.678901+02:00"),
    "datetime_naive": dt("2026-01-02T03:04:05.678901"),
    "datetime_whole_second": dt("2026-01-02T03:04:05+00:00"),
    "date": {"$date": "2026-01-02"},
}

TIMESTAMP_UTC = dt("2026-01-02T03:04:05.678901+00:00")

# (name, method, keyword arguments). Every message_id is unique, so that messages can be matched by it.
CALLS = [
    ("track-full", "track", {
        "user_id": "user-1", "anonymous_id": "anon-1", "event": "Order Completed", "properties": EVERY_TYPE,
        "context": CONTEXT, "timestamp": TIMESTAMP_UTC, "message_id": "msg-track-full", "integrations": INTEGRATIONS,
    }),
    ("track-user-only-offset-timestamp", "track", {
        "user_id": "user-1", "event": "Signed In", "properties": {"method": "password"},
        "timestamp": dt("2026-01-02T05:04:05.678901+02:00"), "message_id": "msg-track-user-only",
    }),
    ("track-anonymous-only-naive-timestamp", "track", {
        "anonymous_id": "anon-1", "event": "Viewed", "timestamp": dt("2026-01-02T03:04:05.678901"),
        "message_id": "msg-track-anonymous-only",
    }),
    ("track-whole-second-timestamp", "track", {
        "anonymous_id": "anon-1", "event": "Viewed", "timestamp": dt("2026-01-02T03:04:05+00:00"),
        "message_id": "msg-track-whole-second",
    }),
    ("track-numeric-ids", "track", {
        "user_id": 42, "anonymous_id": 7, "event": "Numeric Ids", "timestamp": TIMESTAMP_UTC, "message_id": 12345,
    }),
    ("track-empty-context-and-integrations", "track", {
        "user_id": "user-1", "event": "Empty Maps", "properties": {}, "context": {}, "integrations": {},
        "timestamp": TIMESTAMP_UTC, "message_id": "msg-track-empty-maps",
    }),
    ("track-nested-integrations", "track", {
        "user_id": "user-1", "event": "Nested Integrations",
        "integrations": {"All": True, "Salesforce": False, "Amplitude": {"session_id": 1767323045678}},
        "timestamp": TIMESTAMP_UTC, "message_id": "msg-track-nested-integrations",
    }),
    ("track-generated-id-and-timestamp", "track", {"anonymous_id": "anon-1", "event": "Generated"}),
    ("identify-full", "identify", {
        "user_id": "user-1", "anonymous_id": "anon-1", "traits": EVERY_TYPE, "context": CONTEXT,
        "timestamp": TIMESTAMP_UTC, "message_id": "msg-identify-full", "integrations": INTEGRATIONS,
    }),
    ("identify-anonymous-only", "identify", {
        "anonymous_id": "anon-1", "traits": {"email": "anon@example.com"}, "timestamp": TIMESTAMP_UTC,
        "message_id": "msg-identify-anonymous-only",
    }),
    ("identify-user-only-no-traits", "identify", {
        "user_id": "user-1", "timestamp": TIMESTAMP_UTC, "message_id": "msg-identify-no-traits",
    }),
    ("page-full", "page", {
        "user_id": "user-1", "anonymous_id": "anon-1", "category": "Docs", "name": "Getting Started",
        "properties": EVERY_TYPE, "context": CONTEXT, "timestamp": TIMESTAMP_UTC, "message_id": "msg-page-full",
        "integrations": INTEGRATIONS,
    }),
    ("page-name-only", "page", {
        "user_id": "user-1", "name": "Pricing", "properties": {"path": "/pricing"}, "timestamp": TIMESTAMP_UTC,
        "message_id": "msg-page-name-only",
    }),
    ("page-category-only", "page", {
        "anonymous_id": "anon-1", "category": "Docs", "timestamp": TIMESTAMP_UTC,
        "message_id": "msg-page-category-only",
    }),
    ("page-no-name-no-category", "page", {
        "anonymous_id": "anon-1", "timestamp": TIMESTAMP_UTC, "message_id": "msg-page-bare",
    }),
    ("screen-full", "screen", {
        "user_id": "user-1", "anonymous_id": "anon-1", "category": "Onboarding", "name": "Welcome",
        "properties": EVERY_TYPE, "context": CONTEXT, "timestamp": TIMESTAMP_UTC, "message_id": "msg-screen-full",
        "integrations": INTEGRATIONS,
    }),
    ("screen-name-only", "screen", {
        "user_id": "user-1", "name": "Settings", "timestamp": TIMESTAMP_UTC, "message_id": "msg-screen-name-only",
    }),
    ("screen-no-name-no-category", "screen", {
        "anonymous_id": "anon-1", "timestamp": TIMESTAMP_UTC, "message_id": "msg-screen-bare",
    }),
    ("group-full", "group", {
        "user_id": "user-1", "anonymous_id": "anon-1", "group_id": "group-1", "traits": EVERY_TYPE,
        "context": CONTEXT, "timestamp": TIMESTAMP_UTC, "message_id": "msg-group-full", "integrations": INTEGRATIONS,
    }),
    ("group-anonymous-only-no-traits", "group", {
        "anonymous_id": "anon-1", "group_id": "group-2", "timestamp": TIMESTAMP_UTC,
        "message_id": "msg-group-minimal",
    }),
    ("group-numeric-ids", "group", {
        "user_id": 42, "group_id": 1001, "timestamp": TIMESTAMP_UTC, "message_id": "msg-group-numeric-ids",
    }),
    ("alias-full", "alias", {
        "previous_id": "anon-1", "user_id": "user-1", "context": CONTEXT, "timestamp": TIMESTAMP_UTC,
        "message_id": "msg-alias-full", "integrations": INTEGRATIONS,
    }),
    ("alias-minimal", "alias", {
        "previous_id": "user-old", "user_id": "user-1", "timestamp": TIMESTAMP_UTC, "message_id": "msg-alias-minimal",
    }),
    ("alias-numeric-ids", "alias", {
        "previous_id": 7, "user_id": 42, "timestamp": TIMESTAMP_UTC, "message_id": "msg-alias-numeric-ids",
    }),
]

# Calls that give no message_id / timestamp: the client makes them, so the fixture holds placeholders.
GENERATED = {"track-generated-id-and-timestamp": ("messageId", "timestamp")}


# MARK: The outer run: a virtualenv, then this script inside it


def make_virtualenv(directory):
    python = os.path.join(directory, "bin", "python")
    requirements = os.path.join(HERE, "requirements.txt")
    marker = os.path.join(directory, "installed-requirements")
    with open(requirements) as file:
        wanted = file.read()
    if os.path.exists(marker):
        with open(marker) as file:
            if file.read() == wanted:
                return python
    subprocess.run([sys.executable, "-m", "venv", directory], check=True)
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", requirements], check=True)
    with open(marker, "w") as file:
        file.write(wanted)
    return python


def outer(arguments):
    scratch = arguments.scratch
    temporary = scratch is None
    if temporary:
        scratch = tempfile.mkdtemp(prefix="segment-python-wire-")
    scratch = os.path.abspath(scratch)
    if os.path.commonpath([scratch, REPOSITORY]) == REPOSITORY:
        raise SystemExit("--scratch must be outside the repository (%s)" % REPOSITORY)
    try:
        python = make_virtualenv(os.path.join(scratch, "venv"))
        output = arguments.output
        if arguments.check:
            output = os.path.join(scratch, "check.json")
        subprocess.run([python, os.path.abspath(__file__), "--inside", "--output", output], check=True)
        if arguments.check:
            with open(output) as new, open(arguments.output) as committed:
                if new.read() != committed.read():
                    subprocess.run(["diff", "-u", arguments.output, output])
                    print("the committed fixture differs from a new recording", file=sys.stderr)
                    return 1
            print("the committed fixture matches a new recording")
        else:
            print("wrote %s" % os.path.relpath(output))
        return 0
    finally:
        if temporary:
            shutil.rmtree(scratch, ignore_errors=True)


# MARK: The inner run: the recording server and the calls


class Recorder(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    requests = []
    lock = threading.Lock()

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        body = gzip.decompress(raw) if self.headers.get("Content-Encoding") == "gzip" else raw
        with Recorder.lock:
            Recorder.requests.append({
                "method": self.command, "path": self.path, "headers": list(self.headers.items()),
                "length": length, "body": body.decode("utf-8"),
            })
        answer = b'{"success": true}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *_):
        pass


def to_python(value):
    """The fixture's JSON form of an argument -> the Python value the client is called with."""
    if isinstance(value, dict):
        if set(value) == {"$datetime"}:
            return datetime.datetime.fromisoformat(value["$datetime"])
        if set(value) == {"$date"}:
            return datetime.date.fromisoformat(value["$date"])
        return {key: to_python(member) for key, member in value.items()}
    if isinstance(value, list):
        return [to_python(element) for element in value]
    return value


def take_requests():
    with Recorder.lock:
        taken = list(Recorder.requests)
        Recorder.requests.clear()
    return taken


def envelope_of(request, port):
    """The parts of a request that are the same for every call: method, path, headers, body keys, writeKey."""
    headers = []
    for name, value in request["headers"]:
        if name.lower() == "host":
            value = value.replace("127.0.0.1:%d" % port, HOST_PLACEHOLDER)
        elif name.lower() == "content-length":
            if int(value) != request["length"]:
                raise SystemExit("Content-Length %s but %d bytes arrived" % (value, request["length"]))
            value = "<length of the body>"
        headers.append([name, value])
    body = json.loads(request["body"])
    if not re.match(SENT_AT_FORMAT, body["sentAt"]):
        raise SystemExit("sentAt %r does not match %s" % (body["sentAt"], SENT_AT_FORMAT))
    return {
        "method": request["method"], "path": request["path"], "headers": headers, "bodyKeys": list(body),
        "writeKey": body["writeKey"],
    }


def normalise(name, message):
    """The message with the values that differ between runs replaced by placeholders (format checked)."""
    message = copy.deepcopy(message)
    for field in GENERATED.get(name, ()):
        if field == "messageId":
            if not re.match(GENERATED_MESSAGE_ID_FORMAT, message[field]):
                raise SystemExit("%s: generated messageId %r is not a uuid4" % (name, message[field]))
            message[field] = GENERATED_MESSAGE_ID
        elif field == "timestamp":
            text = message[field]
            if not re.match(GENERATED_TIMESTAMP_FORMAT, text):
                raise SystemExit("%s: generated timestamp %r is not in the expected form" % (name, text))
            age = time.time() - datetime.datetime.fromisoformat(text).timestamp()
            if not -1 < age < 60:
                raise SystemExit("%s: generated timestamp %r is not now" % (name, text))
            message[field] = GENERATED_TIMESTAMP
    return message


def make_calls(client, prefix=""):
    for name, method, arguments in CALLS:
        keywords = to_python(copy.deepcopy(arguments))
        if prefix and "message_id" in keywords:
            keywords["message_id"] = prefix + str(keywords["message_id"])
        getattr(client, method)(**keywords)


def inner(arguments):
    from segment.analytics.client import Client
    import segment.analytics.version
    import requests
    import urllib3

    if segment.analytics.version.VERSION != VERSION:
        raise SystemExit("expected segment-analytics-python %s, found %s" % (VERSION, segment.analytics.version.VERSION))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    server.daemon_threads = True
    port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host = "http://127.0.0.1:%d" % port
    try:
        # Sync mode: one request per call, in order.
        client = Client(WRITE_KEY, host=host, sync_mode=True, gzip=False)
        calls = []
        envelope = None
        template = None
        for name, method, call_arguments in CALLS:
            getattr(client, method)(**to_python(copy.deepcopy(call_arguments)))
            posted = take_requests()
            if len(posted) != 1:
                raise SystemExit("%s: %d requests, expected 1" % (name, len(posted)))
            request = posted[0]
            this_envelope = envelope_of(request, port)
            if envelope is None:
                envelope = this_envelope
            elif this_envelope != envelope:
                raise SystemExit("%s: the envelope differs from the first call's:\n%s\n%s" % (
                    name, this_envelope, envelope))
            body = json.loads(request["body"])
            if len(body["batch"]) != 1:
                raise SystemExit("%s: %d messages in the batch" % (name, len(body["batch"])))
            message = body["batch"][0]
            # The message's own text as the client serialised it (json.dumps defaults), found in the body.
            text = json.dumps(message)
            if text not in request["body"]:
                raise SystemExit("%s: the message's text is not a part of the body as sent" % name)
            shape = request["body"].replace(text, "<message>", 1).replace(body["sentAt"], SENT_AT_PLACEHOLDER, 1)
            if template is None:
                template = shape
            elif shape != template:
                raise SystemExit("%s: the body's shape differs: %s" % (name, shape))
            normalised = normalise(name, message)
            entry = {
                "name": name, "method": method, "arguments": call_arguments, "message": normalised,
                "messageText": json.dumps(normalised) if name in GENERATED else text,
            }
            if name in GENERATED:
                entry["placeholders"] = list(GENERATED[name])
            calls.append(entry)

        # The default client (a consumer thread batching up to 100 messages) with gzip on: the same messages.
        batching = Client(WRITE_KEY, host=host, gzip=True, upload_interval=0.05)
        make_calls(batching, prefix="batched-")
        batching.flush()
        batching.join()
        posted = take_requests()
        batched = {}
        gzip_headers = None
        for request in posted:
            headers = {name.lower(): value for name, value in request["headers"]}
            if headers.get("content-encoding") != "gzip":
                raise SystemExit("a gzip=True request without Content-Encoding: gzip")
            without = [[n, v] for n, v in envelope_of(request, port)["headers"] if n.lower() != "content-encoding"]
            if without != envelope["headers"]:
                raise SystemExit("the gzip client's headers differ beyond Content-Encoding: %s" % without)
            gzip_headers = envelope_of(request, port)["headers"]
            for message in json.loads(request["body"])["batch"]:
                batched[message["messageId"]] = message
        for entry in calls:
            if entry["name"] in GENERATED:
                continue
            match = batched.get("batched-" + entry["message"]["messageId"])
            if match is None:
                raise SystemExit("%s: not sent by the batching client" % entry["name"])
            match["messageId"] = entry["message"]["messageId"]
            if match != entry["message"]:
                raise SystemExit("%s: the batching client sent a different message:\n%s\n%s" % (
                    entry["name"], match, entry["message"]))
    finally:
        server.shutdown()

    fixture = {
        "description": (
            "What segment-analytics-python %s sends for each call of record.py's CALLS (regenerate: python3 "
            "Tests/Fixtures/SegmentPythonWire/record.py). `arguments` are the client method's keyword arguments "
            "as JSON ({\"$datetime\": iso} is a datetime, naive without an offset; {\"$date\": iso} a date); "
            "`message` is the message exactly as it was in the batch, `messageText` its text as the client "
            "serialised it; values in angle brackets are placeholders for values that differ between runs."
        ) % VERSION,
        "client": {
            "package": "segment-analytics-python", "version": VERSION,
            "dependencies": {"requests": requests.__version__, "urllib3": urllib3.__version__},
            "constructor": {"write_key": WRITE_KEY, "host": "http://" + HOST_PLACEHOLDER, "sync_mode": True,
                            "gzip": False},
        },
        "envelope": {
            "method": envelope["method"],
            "path": envelope["path"],
            "headers": envelope["headers"],
            "headersWithGzip": gzip_headers,
            "bodyKeys": envelope["bodyKeys"],
            "writeKey": envelope["writeKey"],
            "sentAt": SENT_AT_PLACEHOLDER,
            "sentAtFormat": SENT_AT_FORMAT,
            "bodyText": template,
        },
        "placeholders": {
            GENERATED_MESSAGE_ID: GENERATED_MESSAGE_ID_FORMAT,
            GENERATED_TIMESTAMP: GENERATED_TIMESTAMP_FORMAT,
            SENT_AT_PLACEHOLDER: SENT_AT_FORMAT,
        },
        "calls": calls,
    }
    with open(arguments.output, "w", encoding="utf-8") as file:
        json.dump(fixture, file, indent=2, ensure_ascii=False)
        file.write("\n")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scratch", help="where the virtualenv goes (kept); default: a temporary directory")
    parser.add_argument("--output", default=os.path.join(HERE, "segment-python-%s.json" % VERSION))
    parser.add_argument("--check", action="store_true", help="record into the scratch directory and compare")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    return inner(arguments) if arguments.inside else outer(arguments)


if __name__ == "__main__":
    sys.exit(main())
