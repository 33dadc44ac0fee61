#!/usr/bin/env python3
"""An HTTP/1.1 server on 127.0.0.1 whose answer each request's path chooses, for the libcurl transport's tests.

Two listeners share one set of counters: the main one and an "other origin" (a different port, for redirects).
With --cert/--key both speak TLS. It prints "PORTS <main> <other> <silent>" on its first line, then serves until
stdin closes (the test process ending or closing the pipe ends it). <silent> accepts connections and never reads
or writes.

Every answer the server completes carries X-Connections (connections accepted so far on the main listener),
X-Requests (requests read), X-Landings (requests on the other origin), X-Request-Headers (the lower-cased names
of this request's headers, in order) and X-Request-Body (the body's length).

Paths: /status/<code>, /b (an ingest's 200), /redirect (307 to the other origin), /silent (no answer), /trickle (a head, then one body
byte every 200 ms), /big (Content-Length of 2000 MiB, zeros until the client goes), /endless-chunked, /huge-head
(1 MiB of headers), /huge-line (one header line of 1 MiB), /bad-chunk (a chunk size that is not
hex), /reset-in-head (part of a head, then an RST), /answer-then-close (an answer, then a close without saying so), /hangup (a close
instead of an answer), /close-after-status, /close-in-body (Content-Length 100, 10 bytes, close), /reset (an RST
instead of an answer), /lying-chunked (a chunk size larger than the data, then close).
"""
import argparse
import socket
import ssl
import struct
import sys
import threading
import time

lock = threading.Lock()
counts = {"connections": 0, "requests": 0, "landings": 0}


def bump(name):
    with lock:
        counts[name] += 1
        return counts[name]


def read_request(conn, buffer):
    while b"\r\n\r\n" not in buffer:
        if buffer and not buffer[:1].isalpha():
            return ("BAD", "", [], b""), b""  # not HTTP (a TLS hello): answer 400 at once, as servers do
        data = conn.recv(65536)
        if not data:
            return None, buffer
        buffer += data
    head, _, rest = buffer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) < 3 or not parts[2].startswith("HTTP/"):
        return ("BAD", "", [], b""), b""
    names, length = [], 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        names.append(name.strip().lower())
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    while len(rest) < length:
        data = conn.recv(65536)
        if not data:
            return None, b""
        rest += data
    return (parts[0], parts[1], names, rest[:length]), rest[length:]


def counters(names, body):
    with lock:
        c = dict(counts)
    return (
        f"X-Connections: {c['connections']}\r\nX-Requests: {c['requests']}\r\nX-Landings: {c['landings']}\r\n"
        f"X-Request-Headers: {','.join(names)}\r\nX-Request-Body: {len(body)}\r\n"
    )


def serve(conn, other_port, is_other):
    buffer = b""
    while True:
        request, buffer = read_request(conn, buffer)
        if request is None:
            return
        method, path, names, body = request
        if method == "BAD":
            conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        bump("requests")
        if is_other:
            bump("landings")
        extra = counters(names, body)
        if path.startswith("/status/") or path == "/b":
            code = int(path.split("/")[2]) if path != "/b" else 200
            conn.sendall(f"HTTP/1.1 {code} Scripted\r\n{extra}Content-Length: 2\r\n\r\nok".encode())
        elif path == "/redirect":
            location = f"http://127.0.0.1:{other_port}/landing"
            conn.sendall(f"HTTP/1.1 307 Temporary Redirect\r\nLocation: {location}\r\n{extra}"
                         "Content-Length: 0\r\n\r\n".encode())
        elif path == "/silent":
            while conn.recv(65536):
                pass
            return
        elif path == "/trickle":
            conn.sendall(f"HTTP/1.1 200 OK\r\n{extra}Content-Length: 1000\r\n\r\n".encode())
            for _ in range(1000):
                time.sleep(0.2)
                conn.sendall(b"x")
            return
        elif path == "/big":
            conn.sendall(f"HTTP/1.1 200 OK\r\n{extra}Content-Length: {2000 * 1024 * 1024}\r\n\r\n".encode())
            zeros = bytes(65536)
            for _ in range(2000 * 16):
                conn.sendall(zeros)
            return
        elif path == "/endless-chunked":
            conn.sendall(f"HTTP/1.1 200 OK\r\n{extra}Transfer-Encoding: chunked\r\n\r\n".encode())
            chunk = b"10000\r\n" + bytes(65536) + b"\r\n"
            while True:
                conn.sendall(chunk)
        elif path == "/huge-head":
            filler = "".join(f"X-Filler-{i}: {'y' * 1000}\r\n" for i in range(1024))
            conn.sendall(f"HTTP/1.1 200 OK\r\n{filler}Content-Length: 0\r\n\r\n".encode())
        elif path == "/answer-then-close":
            conn.sendall(f"HTTP/1.1 200 OK\r\n{extra}Content-Length: 0\r\n\r\n".encode())
            return
        elif path == "/hangup":
            return
        elif path == "/close-after-status":
            conn.sendall(b"HTTP/1.1 200 OK\r\n")
            return
        elif path == "/close-in-body":
            conn.sendall(f"HTTP/1.1 200 OK\r\n{extra}Content-Length: 100\r\n\r\n0123456789".encode())
            return
        elif path == "/lying-chunked":
            conn.sendall(f"HTTP/1.1 200 OK\r\n{extra}Transfer-Encoding: chunked\r\n\r\n1000\r\nshort".encode())
            return
        elif path == "/huge-line":
            conn.sendall(b"HTTP/1.1 200 OK\r\nX-Long: " + b"l" * (1024 * 1024) + b"\r\nContent-Length: 0\r\n\r\n")
        elif path == "/bad-chunk":
            conn.sendall(b"HTTP/1.1 202 Accepted\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n")
            return
        elif path == "/reset-in-head":
            conn.sendall(b"HTTP/1.1 202 Accepted\r\nContent-Len")
            time.sleep(0.05)
            if hasattr(conn, "unwrap"):
                raw = socket.socket(fileno=conn.detach())  # the TCP socket under TLS: reset it, no close_notify
                raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                raw.close()
            else:
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            return
        elif path == "/reset":
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            return
        else:
            conn.sendall(f"HTTP/1.1 404 Not Found\r\n{extra}Content-Length: 0\r\n\r\n".encode())


def accept_loop(listener, context, other_port, is_other):
    while True:
        conn, _ = listener.accept()
        if not is_other:
            bump("connections")
        threading.Thread(target=handle, args=(conn, context, other_port, is_other), daemon=True).start()


def handle(conn, context, other_port, is_other):
    try:
        if context is not None:
            conn = context.wrap_socket(conn, server_side=True)
        serve(conn, other_port, is_other)
    except (OSError, ssl.SSLError):
        pass
    finally:
        try:
            conn.close()
        except OSError:
            pass


def listen():
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    return sock


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert")
    parser.add_argument("--key")
    args = parser.parse_args()
    context = None
    if args.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.cert, args.key)
    main_listener, other_listener, silent = listen(), listen(), listen()
    other_port = other_listener.getsockname()[1]
    threading.Thread(target=accept_loop, args=(main_listener, context, other_port, False), daemon=True).start()
    threading.Thread(target=accept_loop, args=(other_listener, context, other_port, True), daemon=True).start()
    print(f"PORTS {main_listener.getsockname()[1]} {other_port} {silent.getsockname()[1]}", flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
