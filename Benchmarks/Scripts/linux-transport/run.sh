#!/bin/sh
# The client's CPU per 7 KB upload on a kept TLS connection, and while one upload waits on a server that never
# answers, for CurlEventTransport (the Linux default) and URLSessionEventTransport, against the tests' scripted
# Python server (Tests/Fixtures/CurlTransport/scripted_server.py, Python's `ssl`) in a process of its own, with a
# throwaway CA made by `openssl`.
#
# URLSession on Linux reads only the system's CA bundle, so its runs go through `unshare --mount` with the
# throwaway CA bind-mounted over the system bundle (root needed; skipped otherwise).
#
# Usage (from the repository root):
#   swift build -c release --package-path Benchmarks --product TransportBenchmarks
#   sh Benchmarks/Scripts/linux-transport/run.sh Benchmarks/.build/release/TransportBenchmarks [REQUESTS] [WAIT_SECONDS]
set -eu
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
requests=${2:-2000}
wait_seconds=${3:-20}
root=$(cd "$(dirname "$0")/../../.." && pwd)
scratch=$(mktemp -d)
trap 'kill "$feeder" 2>/dev/null; rm -rf "$scratch"' EXIT INT TERM
system_bundle=/etc/ssl/certs/ca-certificates.crt

cd "$scratch"
printf 'subjectAltName=IP:127.0.0.1\n' >san.ext
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=bench CA" -keyout ca.key -out ca.pem 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout server.key -out server.csr 2>/dev/null
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile san.ext \
    -out server.pem 2>/dev/null

mkfifo keep-open
sleep 100000 >keep-open &
feeder=$!
python3 "$root/Tests/Fixtures/CurlTransport/scripted_server.py" --cert server.pem --key server.key \
    <keep-open >ports &
i=0
while ! grep -q PORTS ports 2>/dev/null && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
port=$(cut -d' ' -f2 ports)
echo "linux-transport: server https://127.0.0.1:$port, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

urlsession() {
    if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
        unshare --mount --propagation private sh -c 'mount --bind "$0" "$1" && shift && exec "$@"' \
            "$scratch/ca.pem" "$system_bundle" "$binary" "$@"
    else
        echo "linux-transport: URLSession runs skipped (root and unshare needed to trust the throwaway CA)"
    fi
}

for round in 1 2 3 4 5; do
    "$binary" per-request curl "https://127.0.0.1:$port/status/200" "$requests" 7000 "$scratch/ca.pem"
    urlsession per-request urlsession "https://127.0.0.1:$port/status/200" "$requests" 7000
done
"$binary" waiting curl "https://127.0.0.1:$port/silent" "$wait_seconds" "$scratch/ca.pem"
urlsession waiting urlsession "https://127.0.0.1:$port/silent" "$wait_seconds"
echo "linux-transport: load after $(cut -d' ' -f1-3 /proc/loadavg)"
