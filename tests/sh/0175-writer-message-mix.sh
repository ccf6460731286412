#!/bin/sh
# mkdump --message-mix (issue 35 item 1: the mix of message kinds changes
# along a capture, so a longer capture of one build holds another mix): the
# default is 'stationary', byte for byte; with 'drift' the kinds' shares in
# the first and second half of the messages are far apart
# (tests/fixtures/message_mix.py: total variation distance), in every seed,
# where the stationary mix differs only by chance.
. tests/lib.sh
MIX=tests/fixtures/message_mix.py
"$MKDUMP" --records 8000 --build-seed 23 --seed 1 --no-truth "$T/def" >/dev/null
"$MKDUMP" --records 8000 --build-seed 23 --seed 1 --message-mix stationary --no-truth "$T/st" >/dev/null
check "--message-mix stationary is the default, byte for byte" cmp "$T/def/sampling.bin" "$T/st/sampling.bin"
"$MKDUMP" --message-mix sideways "$T/x" >/dev/null 2>"$T/err"
is "$?" 2 "an unknown mix: usage error"
like "$(cat "$T/err")" "bad --message-mix 'sideways' \\(stationary or drift\\)" "... naming the choices"
sum_st=0 sum_dr=0
for s in 21 22 23; do   # three programs (build seeds)
	for mix in stationary drift; do
		"$MKDUMP" --records 20000 --build-seed $s --seed 1 --message-mix $mix --no-truth "$T/$mix$s" >/dev/null
		"$BIN" import -q "$T/$mix$s" -o "$T/$mix$s.db"
		set -- $(python3 $MIX "$T/$mix$s.db")
		eval "tv_$mix=\$3 n_$mix=\$1 k_$mix=\$2"
	done
	check "build $s: the drifting mix moves more than the stationary one (TV $tv_drift, $n_drift messages of $k_drift kinds; $tv_stationary)" \
		awk -v x="$tv_drift" -v y="$tv_stationary" 'BEGIN { exit !(x > y) }'
	sum_st=$(awk -v a="$sum_st" -v b="$tv_stationary" 'BEGIN { print a + b }')
	sum_dr=$(awk -v a="$sum_dr" -v b="$tv_drift" 'BEGIN { print a + b }')
done
check "the stationary mix moves by chance only (mean TV $(awk -v a="$sum_st" 'BEGIN { print a / 3 }') <= 0.1)" \
	awk -v x="$sum_st" 'BEGIN { exit !(x / 3 <= 0.1) }'
check "the drifting one moves (mean TV $(awk -v a="$sum_dr" 'BEGIN { print a / 3 }') >= 0.2)" \
	awk -v x="$sum_dr" 'BEGIN { exit !(x / 3 >= 0.2) }'
