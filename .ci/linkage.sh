#!/usr/bin/env bash
# Proves that FalconCore and BinobanCore build and run against FoundationEssentials alone: the nested
# package under Tests/LinkageTest links both cores into one executable, which must not load
# libFoundation (ICU) or libFoundationNetworking (libcurl).
set -euo pipefail
cd "$(dirname "$0")/../Tests/LinkageTest"

swift build --scratch-path .build -Xswiftc -warnings-as-errors
binary=$(swift build --scratch-path .build --show-bin-path)/LinkageCheck
"$binary"
if [ "$(uname -s)" = "Linux" ]; then
    libs=$(ldd "$binary")
    if grep -E 'libFoundation\.so|libFoundationNetworking\.so' <<<"$libs"; then
        echo "Linkage check failed: a core pulls in Foundation or FoundationNetworking"
        exit 1
    fi
    grep -q 'libFoundationEssentials' <<<"$libs" || { echo "expected libFoundationEssentials"; exit 1; }
    echo "Linkage ok: FoundationEssentials only"
fi
