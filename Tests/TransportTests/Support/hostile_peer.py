#!/usr/bin/env python3
"""A hostile HTTP peer on 127.0.0.1 for the transport tests and benchmarks (Python 3 standard library only).

One process serves many listeners, each with a script of its own, so that a test suite starts Python once. It is
driven line by line over standard input; every answer is one line on standard output:

    open <id> <json spec>      ->  <id> opened <port>    (the listener's token is <id>)
    stats <id> <token>         ->  <id> stats <json: connections, handshakes, requests, bytesWritten, finished>
    close <id> <token>         ->  <id> closed           (the listener stops accepting; connections stay)

A command that fails is answered `<id> failed <reason>`.

On start it prints `ready <directory>`, the directory holding the throwaway certificates it made with the
`openssl` command (`ca.pem`, the CA a client must trust; the server certificates are signed by it). It exits
when standard input reaches its end, so it never outlives the test process that started it.

A listener spec (JSON):

    {"tls": null | "good" | "wrong-name" | "self-signed",   # TLS on the listener, and which certificate
     "handshake": true,             # false: accept the TCP connection and never start TLS
     "refused": false,              # true: the port is bound but not listening, so connecting is refused
     "steps": [step, ...],          # one per request, in arrival order over every connection
     "then": step}                  # every request after the steps run out (default: a 200 with an empty body)

A step (JSON), what to do with one request:

    {"read": "request" | "nothing" | "some" | "tlsRecord",
                                    # read the request (head and Content-Length body) first; or act at once on
                                    # accepting; or after whatever first arrives; or after one whole TLS record
     "delayMs": 0,                  # wait before answering
     "send": "text",                # the answer's bytes (Latin-1; "\\r\\n" line ends written out)
     "sendHex": "hex",              # or the bytes in hex
     "padHeaders": n,               # insert n bytes of header lines (1 000 bytes each) after the first line
     "longHeader": n,               # insert one header line of n bytes after the first line
     "cut": n,                      # send only the first n bytes of them
     "trickleMs": n,                # send one byte every n milliseconds
     "endless": null | "chunked" | "raw",   # after the bytes, body bytes for ever (64 KiB pieces, or chunks
                                            # of 64 KiB) until the client goes
     "repeat": n,                   # with "endless": stop after n pieces
     "end": "keep" | "close" | "reset" | "closeNotify" | "silence"}
                                    # then: read the next request on the connection; close (FIN); reset (RST,
                                    # SO_LINGER 0); TLS close_notify and close; or hold the connection open
                                    # without a byte until the client closes it
"""

import json
import os
import shutil
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time

PIECE = 64 * 1024
OK = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"


def make_certificates(directory):
    """A CA, a certificate for 127.0.0.1 / localhost, one for another name, and a self-signed one."""

    def run(*arguments):
        subprocess.run(["openssl", *arguments], cwd=directory, check=True, capture_output=True)

    curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run("req", "-x509", *curve, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=SDK Core test CA",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    for name, alt in (("server", "IP:127.0.0.1,DNS:localhost"), ("wrong-name", "DNS:elsewhere.invalid")):
        run("req", *curve, "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN={name}")
        with open(os.path.join(directory, f"{name}.ext"), "w") as extensions:
            extensions.write(f"subjectAltName={alt}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
        run("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", f"{name}.pem", "-days", "2", "-extfile", f"{name}.ext")
    run("req", "-x509", *curve, "-keyout", "self-signed.key", "-out", "self-signed.pem", "-days", "2",
        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost")


class Listener:
    def __init__(self, token, spec, certificates, out):
        self.token = token
        self.spec = spec
        self.out = out
        self.lock = threading.Lock()
        self.steps = list(spec.get("steps", []))
        self.then = spec.get("then", {"send": OK})
        self.counts = {"connections": 0, "handshakes": 0, "requests": 0, "bytesWritten": 0, "finished": 0}
        self.context = None
        if spec.get("tls"):
            name = {"good": "server", "wrong-name": "wrong-name", "self-signed": "self-signed"}[spec["tls"]]
            self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.context.load_cert_chain(os.path.join(certificates, f"{name}.pem"),
                                         os.path.join(certificates, f"{name}.key"))
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        if spec.get("refused"):
            # Bound but not listening: a connection is refused, and no other listener can take the port meanwhile.
            return
        self.socket.listen(64)
        threading.Thread(target=self.accept_loop, daemon=True).start()

    def count(self, key, amount=1):
        with self.lock:
            self.counts[key] += amount

    def next_step(self):
        with self.lock:
            return self.steps.pop(0) if self.steps else self.then

    def accept_loop(self):
        while True:
            try:
                client, _ = self.socket.accept()
            except OSError:
                return
            self.count("connections")
            threading.Thread(target=self.serve, args=(client,), daemon=True).start()

    def serve(self, client):
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        connection = client
        try:
            if self.context is not None:
                if self.spec.get("handshake", True) is False:
                    hold(client)
                    return
                try:
                    connection = self.context.wrap_socket(client, server_side=True)
                except (ssl.SSLError, OSError):
                    return
                self.count("handshakes")
            buffered = b""
            while True:
                step = self.peek_step_read()
                if step == "request":
                    request, buffered = read_request(connection, buffered)
                    if request is None:
                        return
                    self.count("requests")
                elif step == "some":
                    data = connection.recv(PIECE)
                    if not data:
                        return
                elif step == "tlsRecord":
                    if read_tls_record(connection) is None:
                        return
                step = self.next_step()
                if not self.answer(connection, step):
                    return
        except OSError:
            return
        finally:
            self.count("finished")
            try:
                connection.close()
            except OSError:
                pass

    def peek_step_read(self):
        with self.lock:
            step = self.steps[0] if self.steps else self.then
        return step.get("read", "request")

    def answer(self, connection, step):
        """Performs one step; False when the connection is done. `connection` owns the descriptor (a TLS socket
        takes it over from the plain one it wraps), so the socket options and shutdowns below go through it."""
        if step.get("delayMs"):
            time.sleep(step["delayMs"] / 1000)
        data = bytes.fromhex(step["sendHex"]) if "sendHex" in step else step.get("send", "").encode("latin-1")
        if step.get("padHeaders") or step.get("longHeader"):
            status, _, rest = data.partition(b"\r\n")
            lines = []
            if step.get("padHeaders"):
                line = b"X-Padding-%06d: " + b"p" * 980 + b"\r\n"
                lines = [line % index for index in range(step["padHeaders"] // len(line % 0))]
            if step.get("longHeader"):
                lines.append(b"X-Long: " + b"l" * step["longHeader"] + b"\r\n")
            data = status + b"\r\n" + b"".join(lines) + rest
        if "cut" in step:
            data = data[:step["cut"]]
        if step.get("trickleMs"):
            for index in range(len(data)):
                connection.sendall(data[index:index + 1])
                self.count("bytesWritten")
                time.sleep(step["trickleMs"] / 1000)
        elif data:
            connection.sendall(data)
            self.count("bytesWritten", len(data))
        endless = step.get("endless")
        if endless:
            piece = b"a" * PIECE
            if endless == "chunked":
                piece = b"%x\r\n" % PIECE + piece + b"\r\n"
            sent = 0
            limit = step.get("repeat")
            while limit is None or sent < limit:
                connection.sendall(piece)
                self.count("bytesWritten", len(piece))
                sent += 1
        end = step.get("end", "keep")
        if end == "keep":
            return True
        if end == "reset":
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            connection.close()
            return False
        if end == "closeNotify" and isinstance(connection, ssl.SSLSocket):
            try:
                connection.unwrap().close()
            except (ssl.SSLError, OSError):
                pass
            return False
        if end == "silence":
            hold(connection)
        elif end == "close":
            # A FIN, then whatever the client still sends is read until it closes: closing with unread bytes
            # would send a reset instead (a TLS ClientHello read in part, say).
            try:
                connection.shutdown(socket.SHUT_WR)
                connection.settimeout(30)
                while connection.recv(PIECE):
                    pass
            except OSError:
                pass
        return False


def hold(connection):
    """Keeps the connection open without writing until the client closes it."""
    try:
        while connection.recv(PIECE):
            pass
    except OSError:
        pass


def read_exactly(connection, count):
    data = b""
    while len(data) < count:
        piece = connection.recv(count - len(data))
        if not piece:
            return None
        data += piece
    return data


def read_tls_record(connection):
    """One whole TLS record (a ClientHello): its 5-byte header, then as many bytes as the header says."""
    header = read_exactly(connection, 5)
    if header is None:
        return None
    return read_exactly(connection, struct.unpack("!H", header[3:5])[0])


def read_request(connection, buffered):
    """One request head and its Content-Length body: (head, rest) or (None, b"") when the client went."""
    while b"\r\n\r\n" not in buffered:
        data = connection.recv(PIECE)
        if not data:
            return None, b""
        buffered += data
    head, _, rest = buffered.partition(b"\r\n\r\n")
    length = 0
    expects_continue = False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip() or b"0")
        if name.strip().lower() == b"expect" and value.strip().lower() == b"100-continue":
            expects_continue = True
    if expects_continue and len(rest) < length:
        connection.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
    while len(rest) < length:
        data = connection.recv(PIECE)
        if not data:
            return None, b""
        rest += data
    return head, rest[length:]


def main():
    certificates = tempfile.mkdtemp(prefix="hostile-peer-")
    make_certificates(certificates)
    out_lock = threading.Lock()

    def say(line):
        with out_lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    listeners = {}
    say(f"ready {certificates}")
    for line in sys.stdin:
        command, _, rest = line.strip().partition(" ")
        identifier, _, argument = rest.partition(" ")
        try:
            if command == "open":
                listener = Listener(identifier, json.loads(argument), certificates, say)
                listeners[identifier] = listener
                say(f"{identifier} opened {listener.port}")
            elif command == "stats":
                listener = listeners[argument]
                with listener.lock:
                    say(f"{identifier} stats {json.dumps(listener.counts)}")
            elif command == "close":
                listeners[argument].socket.close()
                say(f"{identifier} closed")
            else:
                say(f"{identifier} failed unknown command {command}")
        except Exception as error:  # a bad command must not stop the peer; the test reads the reason
            say(f"{identifier} failed {type(error).__name__}: {error}")
    shutil.rmtree(certificates, ignore_errors=True)
    os._exit(0)


if __name__ == "__main__":
    main()
