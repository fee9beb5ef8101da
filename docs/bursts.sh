#!/bin/sh
# Prints the table of docs/presets.md ("How the bursts move"): for each burst preset at 0.15,
# 0.4, 1, 2 and 3 s, on the CPU reference (the closed form the shader evaluates) at 960×540 with
# seed 3, each cloud's extent along and across its motion, how far back to its mouth it trails,
# and the vertical spread and descent speeds of what still flies. A measurement, not a check:
# the stream tests that compute it also hold the properties the docs state.
#
#   sh docs/bursts.sh
set -eu
cd "$(dirname "$0")/.."
swift build --build-tests >/dev/null
"$(swift build --show-bin-path)/ConfettiPackageTests.xctest" \
  ConfettiCoreTests.StreamTests/testTheBurstsTableForTheDocs 2>&1 | grep '^|'
