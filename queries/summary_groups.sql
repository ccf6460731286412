-- summary_groups: what a fleet groups a trace by (engine/fleet/README.md,
-- part 1): its format, the started app's package (else the process's
-- name), the start's kind, and the app version, device model and OS
-- version where the importer stored them in meta. Known ones only.
-- -> key TEXT, value TEXT
WITH st AS (SELECT kind, package FROM startup ORDER BY ts LIMIT 1),
g(key, value) AS (
	SELECT 'format', (SELECT value FROM meta WHERE key = 'format')
	UNION ALL SELECT 'package', coalesce((SELECT package FROM st), (SELECT value FROM meta WHERE key = 'process_name'))
	UNION ALL SELECT 'startup', (SELECT kind FROM st)
	UNION ALL SELECT key, value FROM meta WHERE key IN ('app_version', 'device_model', 'os_version')
)
SELECT key, CAST(value AS TEXT) FROM g WHERE value IS NOT NULL AND value <> '' ORDER BY key
