#!/usr/bin/env bash
# Builds the DocC documentation of every library module without the DocC plugin:
# dump the public symbol graphs, then `docc convert` each module with warnings as errors.
# The archives land in .docs-build/archives/<Module>.doccarchive, ready for static hosting; to read one, serve
# it and open /documentation/<module, lowercased>, e.g.
#   python3 -m http.server 8000 --bind 127.0.0.1 --directory .docs-build/archives/BinobanCore.doccarchive
#   then http://127.0.0.1:8000/documentation/binobancore (or open the archive in Xcode on macOS).
set -euo pipefail
cd "$(dirname "$0")/.."

out=.docs-build
rm -rf "$out"
mkdir -p "$out/symbols" "$out/archives"
# dump-symbol-graph also tries the synthesized test-discovery modules and exits non-zero on them; the
# library graphs are still written, and each one is checked for below.
swift package --scratch-path .build-docs dump-symbol-graph --minimum-access-level public >"$out/dump.log" 2>&1 || true
graphs=$(find .build-docs -type d -name symbolgraph | head -n 1)
[ -n "$graphs" ] || { cat "$out/dump.log"; echo "no symbol graphs were produced"; exit 1; }

modules=(SDKCoreCommon FalconCore FalconCoreURLSession FalconCoreTesting BinobanCore BinobanCoreURLSession BinobanCoreTesting
    LoopbackHTTP)
for module in "${modules[@]}"; do
    mkdir -p "$out/symbols/$module"
    [ -f "$graphs/$module.symbols.json" ] || { cat "$out/dump.log"; echo "no symbol graph for $module"; exit 1; }
    cp "$graphs/$module".symbols.json "$out/symbols/$module/"
    cp "$graphs/$module"@*.symbols.json "$out/symbols/$module/" 2>/dev/null || true
    catalog=()
    [ -d "Sources/$module/$module.docc" ] && catalog=("Sources/$module/$module.docc")
    docc convert "${catalog[@]}" \
        --additional-symbol-graph-dir "$out/symbols/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.sdkcore.$module" \
        --output-path "$out/archives/$module.doccarchive" \
        --warnings-as-errors >"$out/$module.log" 2>&1 || { cat "$out/$module.log"; echo "DocC failed for $module"; exit 1; }
    echo "DocC ok: $module"
done

echo
echo "Archives: $out/archives/<Module>.doccarchive (one per module above). To read one in a browser:"
echo "  python3 -m http.server 8000 --bind 127.0.0.1 --directory $out/archives/BinobanCore.doccarchive"
echo "  then open http://127.0.0.1:8000/documentation/binobancore"
