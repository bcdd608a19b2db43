-- wrk script: POST admin logins with a wrong password, and count the answers by status.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"email":"admin@example.org","password":"wrong-password"}'

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for _, status in ipairs({ 200, 401, 429, 503 }) do
      local n = thread:get("statuses")[status]
      if n then total[status] = (total[status] or 0) + n end
    end
  end
  local parts = {}
  for _, status in ipairs({ 200, 401, 429, 503 }) do
    table.insert(parts, status .. "=" .. (total[status] or 0))
  end
  io.write("statuses " .. table.concat(parts, " ") .. "\n")
end
