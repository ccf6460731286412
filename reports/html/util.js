/* util.js: what the HTML report's scripts share (window.BT): the data of
 * #bt-data, number formats, the tooltip, canvases, and colours that mean
 * something: the app's own methods warm, the framework's (Android, Java,
 * Kotlin, the runtime, native libraries) cool, unknown frames grey. The
 * app is the trace's package (D.app): frames under it, and any outside
 * the well-known framework packages, are the app's; a name with no
 * package at all ("void Monitor:Lock()") is the runtime's. */
(function () {
	'use strict';

	var BT = window.BT = { started: performance.now(), phases: [] };
	/* When each step of the first drawing ended (data-phases, for the
	 * benchmark): ms from navigation. */
	BT.phase = function (what) { BT.phases.push(what + ' ' + Math.round(performance.now())); };
	BT.phase('html');
	var D = BT.D = JSON.parse(document.getElementById('bt-data').textContent);
	BT.phase('json');
	var NAMES = BT.NAMES = D.names;
	var FULL = D.full || [];
	var DPR = window.devicePixelRatio || 1;

	BT.byId = function (id) { return document.getElementById(id); };
	var tip = BT.byId('bt-tip');

	/* A frame's name in full (the tooltips'). */
	BT.full = function (id) { return FULL[id] || NAMES[id]; };

	BT.ms = function (ns) {
		var v = ns / 1e6, a = Math.abs(v);
		return (a >= 100 ? v.toFixed(1) : a >= 1 ? v.toFixed(2) : v.toFixed(3)) + ' ms';
	};
	BT.pct = function (a, b) { return b > 0 ? (100 * a / b).toFixed(2) + ' %' : '-'; };
	BT.bytes = function (n) {
		var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0;
		while (Math.abs(n) >= 1024 && i < u.length - 1) { n /= 1024; i++; }
		return (i ? n.toFixed(1) : String(n)) + ' ' + u[i];
	};
	BT.count = function (n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','); };

	BT.showTip = function (lines, ev) {
		tip.textContent = lines.filter(function (l) { return l !== ''; }).join('\n');
		tip.hidden = false;
		var x = ev.clientX + 14, y = ev.clientY + 14;
		if (x + tip.offsetWidth > window.innerWidth - 4) x = Math.max(4, ev.clientX - tip.offsetWidth - 14);
		if (y + tip.offsetHeight > window.innerHeight - 4) y = Math.max(4, ev.clientY - tip.offsetHeight - 14);
		tip.style.left = x + 'px';
		tip.style.top = y + 'px';
	};
	BT.hideTip = function () { tip.hidden = true; };
	BT.tipText = function () { return tip.hidden ? '' : tip.textContent; };

	/* A canvas of css size w x h, sharp on high-density screens. */
	BT.sized = function (canvas, w, h) {
		canvas.style.width = w + 'px';
		canvas.style.height = h + 'px';
		canvas.width = Math.round(w * DPR);
		canvas.height = Math.round(h * DPR);
		var ctx = canvas.getContext('2d');
		ctx.setTransform(DPR, 0, 0, DPR, 0, 0);
		ctx.font = '11px system-ui, sans-serif';
		ctx.textBaseline = 'middle';
		return ctx;
	};

	/* s cut to fit w pixels, or '' when nothing readable fits. */
	BT.fit = function (s, w) {
		var max = Math.floor((w - 6) / 6.2);
		if (max < 3) return '';
		return s.length <= max ? s : s.slice(0, max - 1) + '\u2026';
	};

	function hash(s) {
		var h = 0, i;
		for (i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
		return h >>> 0;
	}

	/* ---- app or framework ------------------------------------------------ */

	var APP = 0, FRAMEWORK = 1, UNKNOWN = 2;
	BT.KINDS = ['app', 'framework', 'unknown'];
	var FW = /^(android|androidx|java|javax|kotlin|kotlinx|dalvik|libcore|sun|jdk|com\.android|com\.google\.android|org\.apache\.harmony|org\.json|org\.xmlpull|org\.w3c|art|std|__cxxabiv1|bionic)(\.|::|\$|$)/;
	var OBJC_FW = /^(NS|UI|CA|CF|CG|CL|AV|WK|MK|SK|_)/;
	var IMAGE_FW = /^(lib|dyld|UIKit|Core|Foundation|Quartz|CFNetwork|GraphicsServices|Security|WebKit|JavaScriptCore|AV|Metal|IOKit|SwiftUI|Combine)|\.dylib$/;
	var app = typeof D.app === 'string' && D.app ? D.app : null;

	/* The class and method of a signature: "void a.B.c(int)" -> "a.B.c".
	 * iOS frames without symbols name their image: the app's own binary
	 * is the app, the system's libraries and frameworks are not. */
	function qualified(full) {
		var p = full.indexOf('('), head = p >= 0 ? full.slice(0, p) : full, sp = head.lastIndexOf(' ');
		return sp >= 0 ? head.slice(sp + 1) : head;
	}

	function kindOf(full) {
		var m;
		if (!full || full === '?' || full.charAt(0) === '<' || full.charAt(0) === '(') return UNKNOWN;
		if ((m = /^[-+]\[([^ \]]+)/.exec(full))) return OBJC_FW.test(m[1]) ? FRAMEWORK : APP;
		if ((m = /^([^ (]+)\+0x[0-9a-f]+$/i.exec(full)))   /* an image and an offset: "UIKitCore+0x58dc" */
			return IMAGE_FW.test(m[1]) ? FRAMEWORK : APP;
		if (full.indexOf('(') < 0 && /\.so\b|!|^lib/.test(full)) return FRAMEWORK;   /* native: libc.so!read */
		var q = qualified(full);
		if (app && (q.indexOf(app + '.') === 0 || q.indexOf(app + '$') === 0)) return APP;
		return FW.test(q) || q.indexOf('.') < 0 ? FRAMEWORK : APP;   /* no package: the runtime's, or native */
	}
	var KIND = BT.KIND = new Uint8Array(NAMES.length);
	var VARIANT = new Uint8Array(NAMES.length);
	NAMES.forEach(function (n, i) {
		KIND[i] = kindOf(BT.full(i) || '');
		VARIANT[i] = hash(n || '') % 3;
	});
	BT.kindOf = kindOf;

	/* Flame graph colours: hue by kind, a little variation by name. */
	var FLAME = [[], [], []];
	(function () {
		var v;
		for (v = 0; v < 3; v++) {
			FLAME[APP].push('hsl(' + (16 + 11 * v) + ',78%,' + (60 + 3 * v) + '%)');
			FLAME[FRAMEWORK].push('hsl(' + (205 + 9 * v) + ',42%,' + (70 + 3 * v) + '%)');
			FLAME[UNKNOWN].push('hsl(0,0%,' + (76 + 3 * v) + '%)');
		}
	}());
	BT.flameColor = function (id) { return FLAME[KIND[id]][VARIANT[id]]; };

	/* Timeline colours: hue by kind, saturated and dark on-CPU, pale
	 * off-CPU (pct: the CPU share of the slice, 0..100). */
	var SLICE = [[], [], []];
	(function () {
		var v, b;
		for (v = 0; v < 3; v++) {
			var a = [], f = [], u = [];
			for (b = 0; b <= 10; b++) {
				a.push('hsl(' + (16 + 11 * v) + ',' + (30 + 55 * b / 10) + '%,' + (86 - 30 * b / 10 + 2 * v) + '%)');
				f.push('hsl(' + (205 + 9 * v) + ',' + (22 + 43 * b / 10) + '%,' + (88 - 28 * b / 10 + 2 * v) + '%)');
				u.push('hsl(0,0%,' + (88 - 18 * b / 10 + 2 * v) + '%)');
			}
			SLICE[APP].push(a);
			SLICE[FRAMEWORK].push(f);
			SLICE[UNKNOWN].push(u);
		}
	}());
	BT.sliceColor = function (id, pct) { return SLICE[KIND[id]][VARIANT[id]][Math.round(pct / 10)]; };
	BT.kindColor = function (kind, pct) { return SLICE[kind][1][Math.round(pct / 10)]; };
	/* Scheduler states as Perfetto colours them: running green, runnable
	 * (waiting for a CPU) lime, uninterruptible orange, its I/O red,
	 * sleeping pale. */
	BT.STATE_COLOR = { 'running': '#2e9a44', 'runnable': '#a5c83a', 'runnable (preempted)': '#a5c83a',
		'uninterruptible': '#ef7c1a', 'uninterruptible (I/O)': '#d84a3a', 'sleeping': '#dde2ea', other: '#9575cd' };
	BT.LEGEND = {
		flame: [['app', FLAME[APP][1]], ['framework', FLAME[FRAMEWORK][1]], ['unknown frame', FLAME[UNKNOWN][1]],
			['search match', '#d63aff']],
		timeline: [['app, on-CPU', SLICE[APP][1][10]], ['app, off-CPU', SLICE[APP][1][0]],
			['framework, on-CPU', SLICE[FRAMEWORK][1][10]], ['framework, off-CPU', SLICE[FRAMEWORK][1][0]],
			['slices under a pixel, merged', SLICE[APP][1][6], true],
			['Looper message', '#8fb3ea'], ['wait', '#e57373'], ['wait, waker unknown', '#b0b6c2'],
			['waker \u2192 end of wait', 'rgba(47,111,223,0.85)']],
		states: [['running', BT.STATE_COLOR.running], ['runnable', BT.STATE_COLOR.runnable],
			['sleeping', BT.STATE_COLOR.sleeping], ['uninterruptible', BT.STATE_COLOR.uninterruptible],
			['I/O', BT.STATE_COLOR['uninterruptible (I/O)']], ['other state', BT.STATE_COLOR.other]],
		frames: [['frame: main thread, then its draw', '#a7d6b1'], ['janky frame, 1 vsync missed', '#ef6c5a'],
			['2', '#d32f2f'], ['3 or more', '#a31515'], ['frame deadline', '#1d2433', true]]
	};

	/* A legend: a swatch and a word per entry (a third item: a thin swatch). */
	BT.legend = function (el, entries, extra) {
		if (!el) return;
		el.textContent = '';
		entries.forEach(function (e) {
			var s = document.createElement('span'), sw = document.createElement('i');
			sw.style.background = e[1];
			if (e[2]) sw.style.height = '5px';
			s.appendChild(sw);
			s.appendChild(document.createTextNode(e[0]));
			el.appendChild(s);
		});
		if (extra) {
			var n = document.createElement('span');
			n.className = 'note';
			n.textContent = extra;
			el.appendChild(n);
		}
	};
}());
