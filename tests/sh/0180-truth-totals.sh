#!/bin/sh
# The scorers' reader of the writers' truth (tests/scoring/truth_totals.c,
# which score_threads.py runs): per (thread, method) inclusive wall and CPU
# with nested repeats counted once, and whether an activation holds idle
# time of its thread, on a truth small enough to work out by hand.
. tests/lib.sh
TT=$ROOT/$B/tests/truth_totals
tab=$(printf '\t')
{
	echo "tid${tab}depth${tab}symbol${tab}begin_ns${tab}end_ns${tab}cpu_ns${tab}msg_id"
	# thread 1: a() holds b(), which calls a() again (counted once) and c()
	echo "1${tab}2${tab}void a()${tab}20${tab}30${tab}5${tab}0"
	echo "1${tab}2${tab}void c()${tab}40${tab}50${tab}7${tab}0"
	echo "1${tab}1${tab}void b()${tab}15${tab}60${tab}20${tab}0"
	echo "1${tab}0${tab}void a()${tab}10${tab}100${tab}60${tab}0"
	echo "1${tab}0${tab}void a()${tab}200${tab}210${tab}4${tab}0"
	# thread 2: the same names, its own totals; d() in two calls
	echo "2${tab}0${tab}void a()${tab}0${tab}5${tab}1${tab}0"
	echo "2${tab}0${tab}void d(int, long)${tab}300${tab}310${tab}2${tab}0"
	echo "2${tab}0${tab}void d(int, long)${tab}320${tab}330${tab}3${tab}0"
} >"$T/intervals.tsv"
{
	echo "tid${tab}begin_ns${tab}end_ns"
	echo "1${tab}55${tab}58"    # inside b() and the outer a(), after c()
	echo "1${tab}150${tab}150"  # empty: left out
	echo "2${tab}310${tab}320"  # between d()'s calls: in neither
} >"$T/idle.tsv"
"$TT" "$T/intervals.tsv" "$T/idle.tsv" | sort >"$T/out"
is "$(cat "$T/out")" "1${tab}10${tab}7${tab}0${tab}void c()
1${tab}100${tab}64${tab}1${tab}void a()
1${tab}45${tab}20${tab}1${tab}void b()
2${tab}20${tab}5${tab}0${tab}void d(int, long)
2${tab}5${tab}1${tab}0${tab}void a()" "wall and CPU per thread and method, a nested repeat once; idle held by b() and a() only"
"$TT" "$T/intervals.tsv" | sort >"$T/noidle"
is "$(cut -f4 "$T/noidle" | sort -u)" 0 "without idle truth: no activation holds idle time"
is "$(cut -f1-3,5 "$T/noidle")" "$(cut -f1-3,5 "$T/out")" "... and the same totals"
printf 'tid\tbegin_ns\tend_ns\tsymbol\tcpu_ns\n1\t5\tx\tvoid a()\t1\n' >"$T/bad.tsv"
"$TT" "$T/bad.tsv" >"$T/bad.out" 2>"$T/bad.err"
is "$? $(cat "$T/bad.out")" "1 " "a field that is not a number: exit 1, nothing written"
like "$(cat "$T/bad.err")" "bad.tsv: not a number \(line 2\)" "... naming the file and the line"
printf 'tid\tbegin_ns\tsymbol\n' >"$T/nocol.tsv"
"$TT" "$T/nocol.tsv" 2>"$T/nocol.err"
is "$?" 1 "a header without end_ns or cpu_ns: exit 1"
"$TT" "$T/missing.tsv" 2>/dev/null
is "$?" 1 "a missing file: exit 1"
head -n 1 "$T/intervals.tsv" >"$T/none.tsv"
head -n 1 "$T/idle.tsv" >"$T/noidle.tsv"
is "$("$TT" "$T/none.tsv" "$T/noidle.tsv"; echo "rc $?")" "rc 0" "no activations, no idle stretches: nothing, exit 0"
