-- wrk script: POST a calculation without a body (the archetype's own inputs).
wrk.method = "POST"
