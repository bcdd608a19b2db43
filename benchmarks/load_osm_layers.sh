#!/usr/bin/env bash
# Load test of the map layer routes (issue 11, section 4) on the seeded Liechtenstein store:
#   - store: GET /api/osm/{layer}?bbox=... with a new bbox each request (no cache hit); target p99
#     under 20 ms at 64 connections;
#   - cache: the same layer query again and again; target at least half of /api/health's req/s
#     for a map viewport's answer (checked), shown too for the whole country's plants (80 kB).
#
#   bash benchmarks/load_osm_layers.sh      (DURATION=30s CONNECTIONS=64 by default)
#
# Prints one line per endpoint (req/s, p50, p99, errors, ratio to /api/health); exits 1 on any
# error or a missed target.
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/load_common.sh
ensure_wrk

PORT=${BACKEND_PORT:-18082}
STATE=$(mktemp -d)
# Overpass and Nominatim point at a closed port: a request the store cannot answer is an error.
SERVICES=backend BACKEND_PORT=$PORT HOST=127.0.0.1 RUNNER_URL="http://127.0.0.1:9" \
  CATALOGUE_URL="http://127.0.0.1:9" OVERPASS_URL="http://127.0.0.1:9" \
  NOMINATIM_URL="http://127.0.0.1:9" BACKEND_STATE_PATH="$STATE/backend.duckdb" \
  OSM_STORE_PATH="$STATE/osm.duckdb" \
  setsid $DENO run -A server/main.ts >/tmp/load_osm_server.log 2>&1 &
SERVER=$!
trap 'kill -- -$SERVER 2>/dev/null || true; sleep 1; rm -rf "$STATE"' EXIT
BASE="http://127.0.0.1:$PORT"
wait_for "$BASE/api/health" "Accept: application/json"
# The seed import runs in the background after the start: wait for the region.
for _ in $(seq 1 60); do
  curl -fsS "$BASE/api/osm/regions" | grep -q Liechtenstein && break
  sleep 0.5
done
curl -fsS "$BASE/api/osm/regions" | grep -q Liechtenstein || {
  echo "the seed region did not appear" >&2
  exit 1
}

echo "endpoint req/s p50 p99 errors ratio"
health=$(measure "GET_/api/health" "$BASE/api/health" "Accept: application/json")
read -r _ health_rps _ _ errors <<<"$health"
echo "$health 1.00"

store=$(measure "GET_/api/osm/{layer}?bbox=(new)" "$BASE/" "Accept: application/json" \
  benchmarks/osm_layer_bbox.lua)
read -r _ rps _ p99 e <<<"$store"
errors=$((errors + e))
echo "$store $(awk -v a="$rps" -v b="$health_rps" 'BEGIN {printf "%.2f", a / b}')"
# wrk prints latencies with units (us, ms, s).
p99_ms=$(awk -v v="$p99" 'BEGIN {
  if (v ~ /us$/) print v / 1000; else if (v ~ /ms$/) print v + 0; else print v * 1000 }')

# Cached: a map viewport around Vaduz (the lines, 7 kB) and the whole country's plants (80 kB,
# where the bytes themselves bound the rate).
ratio=
for query in "power_lines?bbox=9.50,47.12,9.55,47.17" "power_plants?bbox=9.47,47.04,9.64,47.28"; do
  curl -fsS -o /dev/null "$BASE/api/osm/$query"
  size=$(curl -fsS -o /dev/null -w '%{size_download}' "$BASE/api/osm/$query")
  cached=$(measure "GET_/api/osm/$query(cached,${size}B)" "$BASE/api/osm/$query" \
    "Accept: application/json")
  read -r _ cached_rps _ _ e <<<"$cached"
  errors=$((errors + e))
  r=$(awk -v a="$cached_rps" -v b="$health_rps" 'BEGIN {printf "%.2f", a / b}')
  echo "$cached $r"
  ratio=${ratio:-$r}
done

echo "errors: $errors; store p99: $p99_ms ms; cached/health: $ratio"
[ "$errors" -eq 0 ] && awk -v p="$p99_ms" -v r="$ratio" 'BEGIN {exit !(p < 20 && r >= 0.5)}'
