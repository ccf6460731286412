# Headless Chromium for the tests that read a page's DOM (sourced after
# tests/lib.sh): chrome URL [SCREENSHOT] loads the page in a 1400x900
# window with nothing fetched from the network, writes its DOM to $T/dom
# and its console messages to $T/console; attr NAME is the first
# NAME="..." of that DOM. A test ends at once when Chromium is missing.
[ -x "$CHROME" ] || { echo "not ok - Chromium not found at $CHROME (make test-deps installs it)"; exit 1; }

chrome() {   # url [screenshot]
	timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir="$T/chrome" --window-size=1400,900 \
		--enable-logging=stderr --v=0 --virtual-time-budget=5000 ${2:+--screenshot="$2"} --dump-dom "$1" >"$T/dom" 2>"$T/err"
	grep ':CONSOLE' "$T/err" >"$T/console"
}
attr() {   # name: the first name="..." of the DOM
	grep -o " $1=\"[^\"]*\"" "$T/dom" | head -n 1 | sed 's/^[^"]*"//; s/"$//'
}
