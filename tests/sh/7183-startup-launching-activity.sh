#!/bin/sh
# System_server's launchingActivity#N (API 32+) begins a warm or hot start
# where Android measures it, at the intent: mkperfetto.py's app starts
# with it as atrace prints (S, F and the completed instant) and as
# TrackEvents (a slice on an async track of system_server, nested slices
# on that track and the completed instant), against their truth
# (check_pf_startup.py): the start, its source, window and every phase.
# Both forms give the same start; a cold start still begins at the app's
# first record; a launchingActivity whose completed instant names another
# package is not the app's.
. tests/lib.sh
for k in warm hot cold; do
	for s in 5 6; do
		for form in atrace track; do
			n=$k$s$form
			python3 tests/fixtures/mkperfetto.py "$T/$n.pb" --flavor appstart --start "$k" --seed "$s" \
				--activity-launch "$form" --truth "$T/truth-$n" >/dev/null
			"$BIN" import -q "$T/$n.pb" -o "$T/$n.db"
			is "$?" 0 "$k start, seed $s, $form: import exits 0"
			is "$(python3 tests/fixtures/check_pf_startup.py "$T/truth-$n" "$T/$n.db" 2>&1)" ok \
				"$k start, seed $s, launchingActivity as $form: the start, its source and every phase as the truth"
		done
		cols="kind, ts, end_ts, ttid_ns, ttfd_ns, source, end_source"
		is "$(q "$T/${k}${s}track.db" "SELECT $cols FROM startup")" "$(q "$T/${k}${s}atrace.db" "SELECT $cols FROM startup")" \
			"$k start, seed $s: the same start from TrackEvents as from atrace prints"
	done
done
like "$(q "$T/warm5track.db" "SELECT source FROM startup")" "^launchingActivity#[0-9]+$" \
	"a warm start from TrackEvents begins at launchingActivity#N"
like "$(q "$T/cold5track.db" "SELECT source FROM startup")" "^first main-thread record$" \
	"a cold start still begins at the app's first record"
is "$(q "$T/warm5track.db" "SELECT value FROM meta WHERE key = 'launch_source'")" \
	"$(q "$T/warm5track.db" "SELECT source FROM startup")" "meta: the launch's source"

# launching: also as a TrackEvent slice on system_server's process track
# (the parent of launchingActivity's track), and without launching: at all.
python3 tests/fixtures/mkperfetto.py "$T/both.pb" --flavor appstart --start warm --seed 7 --launch-track \
	--activity-launch track --truth "$T/truth-both" >/dev/null
"$BIN" import -q "$T/both.pb" -o "$T/both.db"
is "$(python3 tests/fixtures/check_pf_startup.py "$T/truth-both" "$T/both.db" 2>&1)" ok \
	"launching: and launchingActivity both as TrackEvents: the start as the truth"
python3 tests/fixtures/mkperfetto.py "$T/alone.pb" --flavor appstart --start hot --seed 8 --no-launching \
	--activity-launch track --truth "$T/truth-alone" >/dev/null
"$BIN" import -q "$T/alone.pb" -o "$T/alone.db"
is "$(python3 tests/fixtures/check_pf_startup.py "$T/truth-alone" "$T/alone.db" 2>&1)" ok \
	"launchingActivity as TrackEvents without a launching: slice: the start as the truth"

# Another package's launch is not the app's: the completed instant renamed.
python3 - "$T/warm5track.pb" "$T/other.pb" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
old = b":com.example.app"
i = b.rfind(b"launchingActivity#")
j = b.find(old, i)
assert i >= 0 and j > i
open(sys.argv[2], "wb").write(b[:j] + b":com.example.ppa" + b[j + len(old):])
PY
"$BIN" import -q "$T/other.pb" -o "$T/other.db"
like "$(q "$T/other.db" "SELECT source FROM startup")" "^launching: com.example.app$" \
	"another package's launchingActivity: the app's start falls back to its launching: slice"
