/* catch.js: the HTML report's first script. It records every error and
 * unhandled rejection on the page (a syntax error in report.js included)
 * into data-errors and #bt-errors, so a headless check can see them. */
(function () {
	'use strict';
	var errors = [];
	function show() {
		var pre = document.getElementById('bt-errors');
		document.documentElement.setAttribute('data-errors', String(errors.length));
		if (pre) {
			pre.textContent = errors.join('\n');
			pre.hidden = errors.length === 0;
		}
	}
	function record(msg) {
		errors.push(String(msg));
		show();
	}
	window.addEventListener('error', function (e) {
		record(e.message ? e.message + ' (line ' + e.lineno + ')' : 'error loading ' + (e.target && e.target.tagName));
	}, true);
	window.addEventListener('unhandledrejection', function (e) {
		record('unhandled rejection: ' + (e.reason && e.reason.message || e.reason));
	});
	document.addEventListener('DOMContentLoaded', show);
}());
