#!/usr/bin/env bash
# Load test of the heating-demand service through its gateway: POST /api/v1/calculate, without a
# body (the archetype's inputs) and with overrides and surfaces, against GET /heat/health on the
# same server in the same run (issue 2, section 7).
#
#   bash benchmarks/load_heat.sh      (DURATION=30s CONNECTIONS=64 by default)
#
# Prints one line per endpoint (req/s, p50, p99, errors) and each calculate/health ratio; exits 1
# on any error or a ratio under 0.5.
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/load_common.sh
ensure_wrk

PORT=${HEAT_PORT:-18080}
KEY=load-test-key
HEADER="X-Api-Key: $KEY"
$DENO task etl >/dev/null
HEAT_PORT=$PORT CATALOGUE_PORT=${CATALOGUE_PORT:-18005} HEAT_API_KEY=$KEY HEAT_HOST=127.0.0.1 \
  $DENO run -A server/main.ts >/tmp/load_heat_server.log 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
wait_for "http://127.0.0.1:$PORT/heat/health" "$HEADER"

CODE=DE.N.SFH.05.Gen.ReEx.001.002
echo "endpoint req/s p50 p99 errors"
health=$(measure "GET_/heat/health" "http://127.0.0.1:$PORT/heat/health" "$HEADER")
echo "$health"
read -r _ health_rps _ _ errors <<<"$health"
status=0
for body in default post; do
  script=benchmarks/calculate_post.lua
  [ "$body" = default ] && script=benchmarks/calculate_post_default.lua
  calc=$(measure "POST_/api/v1/calculate($body)" \
    "http://127.0.0.1:$PORT/api/v1/calculate/$CODE" "$HEADER" "$script")
  echo "$calc"
  read -r _ calc_rps _ _ calc_errors <<<"$calc"
  errors=$((errors + calc_errors))
  ratio=$(awk -v a="$calc_rps" -v b="$health_rps" 'BEGIN {printf "%.2f", a / b}')
  echo "calculate($body)/health ratio: $ratio (target >= 0.5)"
  awk -v r="$ratio" 'BEGIN {exit !(r >= 0.5)}' || status=1
done
echo "errors: $errors"
[ "$errors" -eq 0 ] && exit "$status"
