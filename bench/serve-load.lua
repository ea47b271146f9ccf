-- wrk script for gsymutil serve: POSTs the body in the file $GSYM_BODY (JSON for /symbolicate, or
-- a minidump for /minidump with GSYM_CONTENT_TYPE=application/octet-stream) on every request, and
-- prints one machine-readable summary line at the end:
--   GSYM requests=N duration_us=N errors_connect=N errors_read=N errors_write=N errors_status=N
--        errors_timeout=N p50_us=N p99_us=N max_us=N
-- (errors_status counts non-2xx/3xx answers). Used by bench/serve-load.sh and gsym-serve's LoadTest
-- and MinidumpServeTest.
local path = os.getenv("GSYM_BODY")
local f = assert(io.open(path, "rb"), "GSYM_BODY: cannot open " .. tostring(path))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = os.getenv("GSYM_CONTENT_TYPE") or "application/json"

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "GSYM requests=%d duration_us=%d errors_connect=%d errors_read=%d errors_write=%d errors_status=%d"
      .. " errors_timeout=%d p50_us=%d p99_us=%d max_us=%d\n",
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
