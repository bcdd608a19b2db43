-- wrk script: POST a calculation with overrides and surfaces (the heaviest documented request).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"theta_i":21,"n_Storey":3,"surfaces":[' ..
  '{"id":"w","type":"wall","area":180,"u_value":0.25},' ..
  '{"id":"s","type":"window","area":20,"u_value":1.1,"azimuth":180,"tilt":90}]}'
