#!/usr/bin/env bash
# Load test of the technology catalogue: three read endpoints against GET /health on the same
# server in the same run (issue 3, section 4).
#
#   bash benchmarks/load_catalogue.sh      (DURATION=30s CONNECTIONS=64 by default)
#
# Prints one line per endpoint (req/s, p50, p99, errors, ratio to /health); exits 1 on any error.
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/load_common.sh
ensure_wrk

PORT=${CATALOGUE_PORT:-18005}
STATE=$(mktemp -d)
$DENO task etl >/dev/null
HEAT_PORT=${HEAT_PORT:-18080} CATALOGUE_PORT=$PORT HEAT_API_KEY=load-test-key HEAT_HOST=127.0.0.1 \
  JWT_SECRET_KEY=load-test-secret-of-at-least-32-bytes!! STATE_PATH="$STATE/state.duckdb" \
  $DENO run -A server/main.ts >/tmp/load_catalogue_server.log 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$STATE"' EXIT
BASE="http://127.0.0.1:$PORT"
wait_for "$BASE/health" "Accept: application/json"

echo "endpoint req/s p50 p99 errors ratio"
health=$(measure "GET_/health" "$BASE/health" "Accept: application/json")
read -r _ health_rps _ _ errors <<<"$health"
echo "$health 1.00"
for path in "/api/v1/technologies?limit=200" "/api/v1/technologies/onshore_wind" \
  "/api/v1/timeseries/DE_solar_pv_2016/data"; do
  line=$(measure "GET_$path" "$BASE$path" "Accept: application/json")
  read -r _ rps _ _ e <<<"$line"
  errors=$((errors + e))
  echo "$line $(awk -v a="$rps" -v b="$health_rps" 'BEGIN {printf "%.2f", a / b}')"
done
echo "errors: $errors"
[ "$errors" -eq 0 ]
