-- wrk script: GET /api/osm/<layer>?bbox=... with a different bbox inside Liechtenstein on every
-- request, so that no answer comes from the cache (each is a store query).
local layers = {"power_plants", "substations", "power_lines", "communes", "districts"}
local n = 0
request = function()
  n = n + 1
  local layer = layers[(n % #layers) + 1]
  local lon = 9.47 + math.random() * 0.12
  local lat = 47.04 + math.random() * 0.2
  local w = 0.01 + math.random() * 0.08
  local path = string.format("/api/osm/%s?bbox=%.6f,%.6f,%.6f,%.6f", layer, lon, lat, lon + w, lat + w)
  return wrk.format("GET", path)
end
