-- diagnostics_all: every recorded data-quality issue.
-- -> code TEXT, count INTEGER, detail TEXT
SELECT code, count, detail FROM diagnostics ORDER BY code
