# Shared helpers of the load scripts: wrk installation, one measured run, and its summary line.
# Sourced, not run. Loads go to 127.0.0.1 only, bounded by DURATION.

DENO=${DENO:-"npx -y deno@2.9.6"}
DURATION=${DURATION:-30s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}

ensure_wrk() {
  command -v wrk >/dev/null && return
  echo "installing wrk (Debian package)" >&2
  apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends wrk >/dev/null
}

wait_for() { # url header
  for _ in $(seq 1 120); do
    curl -fsS -o /dev/null -H "$2" "$1" 2>/dev/null && return 0
    sleep 0.5
  done
  echo "service at $1 did not come up" >&2
  return 1
}

# Runs wrk and prints: name req/s p50 p99 errors (errors = non-2xx/3xx + socket errors).
measure() { # name url header [lua-script]
  local name=$1 url=$2 header=$3 script=${4:-}
  local out
  out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -H "$header" \
    ${script:+-s "$script"} "$url")
  local rps p50 p99 non2xx socket
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  non2xx=$(awk '/Non-2xx or 3xx responses:/ {print $NF}' <<<"$out")
  socket=$(awk '/Socket errors:/ {gsub(",", ""); print $4 + $6 + $8 + $10}' <<<"$out")
  printf '%s %s %s %s %s\n' "$name" "$rps" "$p50" "$p99" "$(( ${non2xx:-0} + ${socket:-0} ))"
}
