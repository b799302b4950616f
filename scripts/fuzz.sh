#!/usr/bin/env bash
# Fuzzes the JSON parser, JSON Patch, Props decoding, WebSocket client messages and the WebSocket frames
# clients send with libFuzzer
# (swiftc -sanitize=fuzzer,address), each for SECONDS (default 10), and prints the executions and
# crashes of every target. A crash leaves its input in .build/fuzz/artifacts/ and fails the script.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
out=.build/fuzz
mkdir -p "$out/artifacts"
# One package name for every module, as SwiftPM gives them, so the targets see `package` declarations.
flags=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -Onone -package-name storybook
       -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault -I "$out")

# The code under test, instrumented, as modules the targets import (rebuilt when a source changed).
module() {  # module NAME SOURCES...
  local name="$1"; shift
  if [[ ! -f "$out/$name.o" ]] || [[ -n "$(find "$@" -newer "$out/$name.o" -print -quit)" ]]; then
    swiftc "${flags[@]}" -wmo -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" \
      -c -o "$out/$name.o" $(find "$@" -name '*.swift' | sort)
  fi
}
module PropsCatalog Sources/PropsCatalog
module DemoCatalog Sources/DemoCatalog

declare -A extra=([client-messages]="Sources/StorybookServer/WebSocket/ClientMessage.swift Sources/StorybookServer/App/APIError.swift Sources/StorybookServer/Renderers/RendererMessage.swift Sources/StorybookServer/Renderers/RendererReport.swift"
                  [websocket-frames]="Sources/StorybookTransport/WebSocketReader.swift Sources/StorybookTransport/UTF8Validation.swift Sources/StorybookTransport/CloseFrame.swift")
declare -A source=([json-parser]=JSONParserTarget [json-patch]=JSONPatchTarget [props-decoding]=PropsDecodingTarget
                   [client-messages]=ClientMessageTarget [websocket-frames]=WebSocketFramesTarget)
status=0
for target in json-parser json-patch props-decoding client-messages websocket-frames; do
  binary="$out/$target"
  inputs=("Fuzz/${source[$target]}.swift" ${extra[$target]:-})
  if [[ ! -x "$binary" ]] || [[ -n "$(find "${inputs[@]}" "$out/PropsCatalog.o" "$out/DemoCatalog.o" -newer "$binary" -print -quit)" ]]; then
    if ! swiftc "${flags[@]}" -module-name Fuzz "${inputs[@]}" "$out/PropsCatalog.o" "$out/DemoCatalog.o" -o "$binary" \
         > "$out/$target.build.log" 2>&1; then
      cat "$out/$target.build.log"
      exit 1
    fi
  fi
  corpus="$out/corpus/$target"
  mkdir -p "$corpus"
  set +e
  "$binary" "$corpus" "Fuzz/seeds/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -print_final_stats=1 -artifact_prefix="$out/artifacts/$target-" > "$out/$target.log" 2>&1
  code=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/$target.log" | grep -o '[0-9]*$' || echo 0)
  crashes=0
  if [[ $code -ne 0 ]]; then
    crashes=1
    status=1
    grep -m3 -E 'ERROR|Fatal error|SUMMARY' "$out/$target.log" || true
  fi
  echo "fuzz $target: $runs executions, $crashes crashes in ${seconds}s"
done
exit $status
