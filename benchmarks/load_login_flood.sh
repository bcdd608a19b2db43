#!/usr/bin/env bash
# Login flood (issue 7, finding 2): 16 clients post wrong-password admin logins to the catalogue
# while GET /health of the catalogue and the heat service's POST /api/v1/calculate/{code} (both
# services in one process, as `deno task start` runs them) are measured: first without the
# flood (quiet), then during it.
#
#   DENO=deno DURATION=20s bash benchmarks/load_login_flood.sh
#
# DURATION (seconds, e.g. 20s) bounds each measurement; the flood runs through both probes.
# FLOOD_CONNECTIONS (16) clients flood, PROBE_CONNECTIONS (2) measure. Loads go to 127.0.0.1 only.
# The server gets this script's environment: e.g. LOGIN_ATTEMPTS_PER_MINUTE=1000000
# LOGIN_ACCOUNT_ATTEMPTS_PER_MINUTE=1000000 measures the bcrypt worker and its queue bound alone.
# Prints one line per probe (req/s, p50, p99, errors) and the flood's answers by status.
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/load_common.sh
ensure_wrk

SECONDS_EACH=${DURATION%s}
FLOOD_CONNECTIONS=${FLOOD_CONNECTIONS:-16}
PROBE_CONNECTIONS=${PROBE_CONNECTIONS:-2}
CATALOGUE=${CATALOGUE_PORT:-18105}
HEAT=${HEAT_PORT:-18180}
KEY=load-test-key
STATE=$(mktemp -d)

# The admin's password is "right-password"; the flood sends another one.
HASH=$($DENO eval 'import bcrypt from "bcryptjs"; console.log(bcrypt.hashSync("right-password", 10))')
$DENO task etl >/dev/null

# In its own process group, so that the stop reaches `deno task` and the server it runs.
setsid env CATALOGUE_PORT="$CATALOGUE" HEAT_PORT="$HEAT" HEAT_HOST=127.0.0.1 HEAT_API_KEY=$KEY \
  JWT_SECRET_KEY=load-test-secret-of-at-least-32-bytes!! STATE_PATH="$STATE/state.duckdb" \
  ADMIN_EMAIL=admin@example.org ADMIN_PASSWORD_HASH="$HASH" \
  $DENO task start >/tmp/load_login_flood_server.log 2>&1 &
SERVER=$!
FLOOD=""
cleanup() {
  [ -n "$FLOOD" ] && kill "$FLOOD" 2>/dev/null || true
  kill -TERM -- -"$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  rm -rf "$STATE"
}
trap cleanup EXIT
HEALTH_URL="http://127.0.0.1:$CATALOGUE/health"
CALC_URL="http://127.0.0.1:$HEAT/api/v1/calculate/DE.N.SFH.05.Gen.ReEx.001.001"
LOGIN_URL="http://127.0.0.1:$CATALOGUE/api/v1/auth/admin/login"
wait_for "$HEALTH_URL" "Accept: application/json"
wait_for "http://127.0.0.1:$HEAT/heat/health" "X-Api-Key: $KEY"

probe() { # phase
  THREADS=1 CONNECTIONS=$PROBE_CONNECTIONS measure "$1:GET_/health" "$HEALTH_URL" \
    "Accept: application/json"
  THREADS=1 CONNECTIONS=$PROBE_CONNECTIONS measure "$1:POST_/api/v1/calculate" "$CALC_URL" \
    "X-Api-Key: $KEY" benchmarks/calculate_post_default.lua
}

echo "probe req/s p50 p99 errors"
probe quiet
FLOOD_OUT=$(mktemp)
wrk -t2 -c"$FLOOD_CONNECTIONS" -d"$((2 * SECONDS_EACH + 4))s" --latency \
  -s benchmarks/login_flood.lua "$LOGIN_URL" >"$FLOOD_OUT" &
FLOOD=$!
sleep 2
probe flood
wait "$FLOOD"
FLOOD=""
rps=$(awk '/^Requests\/sec:/ {print $2}' "$FLOOD_OUT")
p50=$(awk '$1 == "50%" {print $2}' "$FLOOD_OUT")
p99=$(awk '$1 == "99%" {print $2}' "$FLOOD_OUT")
echo "flood: POST_/api/v1/auth/admin/login $rps req/s, p50 $p50, p99 $p99," \
  "$(grep '^statuses' "$FLOOD_OUT")"
rm -f "$FLOOD_OUT"
