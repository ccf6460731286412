/* report.js: the HTML report's interactive parts, drawn on canvases from
 * the JSON in #bt-data (reports/html_*.c): the flame graph (thread
 * selector, click to zoom, search, tooltips), the main thread's timeline
 * (messages, slices, waits, arrows from each waker; wheel zoom, drag pan)
 * and sortable tables. A page with D.diff (compare -o diff.html) draws a
 * differential flame graph: nodes carry head and base values and a state
 * per measure, widths by the chosen measure, colours by the change. With #selftest in the URL it drives the real event
 * handlers and writes what happened into #bt-selftest, for headless tests.
 * Counts of what was drawn go into data-* attributes for the same reason. */
(function () {
	'use strict';

	var started = performance.now();
	var D = JSON.parse(document.getElementById('bt-data').textContent);
	var NAMES = D.names;
	var DPR = window.devicePixelRatio || 1;
	var tip = byId('bt-tip');

	function byId(id) { return document.getElementById(id); }

	function ms(ns) {
		var v = ns / 1e6;
		return (Math.abs(v) >= 100 ? v.toFixed(1) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toFixed(3)) + ' ms';
	}
	function pct(a, b) { return b > 0 ? (100 * a / b).toFixed(2) + ' %' : '-'; }
	function bytes(n) {
		var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0;
		while (Math.abs(n) >= 1024 && i < u.length - 1) { n /= 1024; i++; }
		return (i ? n.toFixed(1) : String(n)) + ' ' + u[i];
	}

	function showTip(lines, ev) {
		tip.textContent = lines.join('\n');
		tip.hidden = false;
		var x = ev.clientX + 14, y = ev.clientY + 14;
		if (x + tip.offsetWidth > window.innerWidth - 4) x = Math.max(4, ev.clientX - tip.offsetWidth - 14);
		if (y + tip.offsetHeight > window.innerHeight - 4) y = Math.max(4, ev.clientY - tip.offsetHeight - 14);
		tip.style.left = x + 'px';
		tip.style.top = y + 'px';
	}
	function hideTip() { tip.hidden = true; }

	/* A canvas of css size w x h, sharp on high-density screens. */
	function sized(canvas, w, h) {
		canvas.style.width = w + 'px';
		canvas.style.height = h + 'px';
		canvas.width = Math.round(w * DPR);
		canvas.height = Math.round(h * DPR);
		var ctx = canvas.getContext('2d');
		ctx.setTransform(DPR, 0, 0, DPR, 0, 0);
		ctx.font = '11px system-ui, sans-serif';
		ctx.textBaseline = 'middle';
		return ctx;
	}

	var colors = {};
	/* A warm colour that stays the same for a name. */
	function color(name) {
		var c = colors[name], h = 0, i;
		if (c) return c;
		for (i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) | 0;
		c = 'rgb(' + (205 + (h & 31)) + ',' + (90 + ((h >>> 5) % 130)) + ',' + (40 + ((h >>> 13) % 50)) + ')';
		colors[name] = c;
		return c;
	}

	/* s cut to fit w pixels, or '' when nothing readable fits. */
	function fit(s, w) {
		var max = Math.floor((w - 6) / 6.2);
		if (max < 3) return '';
		return s.length <= max ? s : s.slice(0, max - 1) + '\u2026';
	}

	/* ---- flame graph ---------------------------------------------------- */

	var STRIDE = 8, RH = 18;   /* node: parent, name, then STRIDE - 2 inclusive values */
	var fg = { canvas: byId('fg-canvas'), wrap: byId('fg-wrap'), roots: [], root: null, zoom: null,
		rects: [], term: '', thread: 0, wi: 0, paint: function (nd) { return color(nd.name); } };

	/* The thread's call tree. Self values are inclusive minus the drawn
	 * callees', so callees too small to embed count as their caller's. */
	function buildTree(th) {
		var a = th.nodes, S = th.stride || STRIDE, NM = S - 2, n = a.length / S, nodes = [], i, k;
		var root = { name: th.name + ' (all frames)', v: [], kids: [], parent: null, depth: 0 };
		for (k = 0; k < NM; k++) root.v.push(0);
		for (i = 0; i < n; i++) {
			var o = i * S, p = a[o];
			var nd = { name: NAMES[a[o + 1]], v: a.slice(o + 2, o + 2 + NM), kids: [],
				parent: p < 0 ? root : nodes[p] };
			nd.depth = nd.parent.depth + 1;
			nd.parent.kids.push(nd);
			if (p < 0) for (k = 0; k < NM; k++) root.v[k] += nd.v[k];
			nodes.push(nd);
		}
		nodes.unshift(root);
		root.all = nodes;
		root.maxDepth = 0;
		nodes.forEach(function (nd) {
			nd.lname = nd.name.toLowerCase();
			nd.self = nd.v.slice();
			nd.kids.forEach(function (c) { for (k = 0; k < NM; k++) nd.self[k] -= c.v[k]; });
			nd.kids.sort(function (x, y) {
				return y.v[0] - x.v[0] || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0);
			});
			if (nd.depth > root.maxDepth) root.maxDepth = nd.depth;
		});
		return root;
	}

	function matches(nd) { return fg.term !== '' && nd !== fg.root && nd.lname.indexOf(fg.term) >= 0; }

	function fgRender() {
		var W = Math.max(300, fg.wrap.clientWidth), z = fg.zoom, chain = [], p, drawn = 0, lit = 0;
		var ctx = sized(fg.canvas, W, (fg.root.maxDepth + 1) * RH + 2);
		fg.rects = [];
		function box(nd, x, w, above) {
			var y = nd.depth * RH, label = fit(nd.name, w);
			ctx.globalAlpha = above ? 0.55 : 1;
			ctx.fillStyle = matches(nd) ? '#d63aff' : nd === fg.root ? '#c9ced8' : fg.paint(nd);
			ctx.fillRect(x, y, Math.max(w - 1, 0.5), RH - 1);
			if (fg.mark) label = fit(fg.mark(nd) + nd.name, w);
			if (label) {
				ctx.fillStyle = '#1d2433';
				ctx.fillText(label, x + 3, y + RH / 2);
			}
			fg.rects.push({ x: x, y: y, w: w, nd: nd });
			if (!above && fg.drawn) fg.drawn(nd);
			drawn++;
			if (matches(nd)) lit++;
		}
		for (p = z; p; p = p.parent) chain.unshift(p);
		chain.slice(0, -1).forEach(function (nd) { box(nd, 0, W, true); });
		var scale = W / Math.max(1, z.v[fg.wi]);
		if (fg.reset) fg.reset();
		/* Callees never overflow their caller: medians of runs need not add up. */
		(function walk(nd, x, room) {
			var w = Math.min(nd.v[fg.wi] * scale, room), end = x + w;
			if (w < 0.5 && nd !== z) return;
			box(nd, x, w, false);
			nd.kids.forEach(function (c) { walk(c, x, end - x); x = Math.min(end, x + c.v[fg.wi] * scale); });
		}(z, 0, W));
		if (fg.done) fg.done();
		ctx.globalAlpha = 1;
		fg.wrap.setAttribute('data-flame-frames', String(drawn));
		fg.wrap.setAttribute('data-flame-highlighted', String(lit));
		fg.wrap.setAttribute('data-flame-zoom', z.name);
	}

	/* Share of the thread's wall time in frames matching the search: a
	 * match inside another match counts once. */
	function fgSearch(term) {
		var n = 0, wall = 0, el = byId('fg-match');
		fg.term = term.trim().toLowerCase();
		if (fg.term) {
			(function walk(nd, inside) {
				var m = matches(nd);
				if (m) n++;
				if (m && !inside) wall += nd.v[0];
				nd.kids.forEach(function (c) { walk(c, inside || m); });
			}(fg.root, false));
		}
		var share = fg.root.v[0] > 0 ? 100 * wall / fg.root.v[0] : 0;
		fg.wrap.setAttribute('data-flame-matches', String(n));
		fg.wrap.setAttribute('data-flame-match-pct', share.toFixed(4));
		el.textContent = fg.term ? n + ' frames match: ' + ms(wall) + ', ' + share.toFixed(2) + ' % of the thread' : '';
		fgRender();
	}

	function fgThread(i) {
		var th = D.flame.threads[i];
		fg.thread = i;
		fg.root = fg.roots[i] || (fg.roots[i] = buildTree(th));
		fg.zoom = fg.root;
		byId('fg-note').textContent = D.diff ? diffNote(th) : th.paths + ' call paths of ' + th.name + ' (tid ' + th.tid + '), ' +
			ms(fg.root.v[0]) + ' wall; ' + th.merged + ' paths under ' + D.flame.min_pct +
			' % of the thread were merged into their callers\' self time' +
			(D.flame.threads_left_out ? '; ' + D.flame.threads_left_out + ' smaller threads not shown' : '') + '.';
		fg.wrap.setAttribute('data-flame-thread', String(th.tid));
		fgSearch(byId('fg-search').value);
	}

	function fgHit(ev) {
		var r = fg.canvas.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top, i;
		for (i = fg.rects.length - 1; i >= 0; i--) {
			var b = fg.rects[i];
			if (y >= b.y && y < b.y + RH && x >= b.x && x < b.x + Math.max(b.w, 1)) return b.nd;
		}
		return null;
	}

	function fgTip(nd, ev) {
		if (D.diff) return showTip(diffTip(nd), ev);
		var T = fg.root.v, v = nd.v, s = nd.self;
		showTip([nd.name,
			'wall      ' + ms(v[0]) + ' incl (' + pct(v[0], T[0]) + ')   ' + ms(s[0]) + ' self',
			'CPU       ' + ms(v[1]) + ' incl   ' + ms(s[1]) + ' self',
			'off-CPU   ' + ms(v[0] - v[1]) + ' incl   ' + ms(s[0] - s[1]) + ' self',
			'blocked   ' + ms(v[2]) + ' incl   ' + ms(s[2]) + ' self',
			'allocated ' + bytes(v[3]) + ', ' + v[4] + ' objects incl   ' + bytes(s[3]) + ', ' + s[4] + ' self',
			'page faults ' + v[5] + ' incl   ' + s[5] + ' self',
			nd === fg.root ? '' : '(self includes callees too small to draw)'], ev);
	}

	/* ---- differential flame graph (compare -o diff.html) ------------------ */

	/* v: head wall, head CPU, base wall, base CPU (inclusive), head and base
	 * self wall, head and base self CPU, wall state, CPU state. */
	var STATES = ['unchanged', 'grown', 'shrunk', 'appeared', 'disappeared'];

	function diffOf(nd) {
		var c = fg.wi & 1, h = nd.v[4 + 2 * c], b = nd.v[5 + 2 * c], st = nd === fg.root ? 0 : nd.v[8 + c];
		return { h: h, b: b, d: h - b, rel: b > 0 ? (h - b) / b : h > 0 ? Infinity : 0, st: st };
	}
	/* Red grown, blue shrunk, grey unchanged; saturation by the relative
	 * change (full at +/-50 %, and for paths on one side only). */
	function diffPaint(nd) {
		var x = diffOf(nd), s;
		if (!red(x) && x.st !== 2 && !(x.st === 4 && x.b > D.diff.floor_ns)) return '#c8ccd4';
		s = x.st >= 3 ? 1 : Math.min(1, Math.abs(x.rel) / 0.5);
		return 'hsl(' + (x.st === 1 || x.st === 3 ? 0 : 215) + ',' + Math.round(35 + 55 * s) + '%,' +
			Math.round(80 - 30 * s) + '%)';
	}
	/* Grown, or appeared with a self time above the noise floor. */
	function red(x) { return x.st === 1 || (x.st === 3 && x.h > D.diff.floor_ns); }
	function diffNote(th) {
		return th.paths + ' call paths of the ' + th.name + ', medians of ' + D.diff.base + ' base and ' +
			D.diff.head + ' head runs; ' + th.merged + ' paths in at most half of the runs of each side left out.';
	}
	function diffTip(nd) {
		var c = fg.wi & 1, x = diffOf(nd), what = c ? 'CPU' : 'wall';
		return [nd.name, STATES[x.st] + ' (self ' + what + ')',
			'self ' + what + '  base ' + ms(x.b) + '   head ' + ms(x.h),
			'delta ' + (x.d >= 0 ? '+' : '') + ms(x.d) + (isFinite(x.rel) ? ' (' + (x.rel >= 0 ? '+' : '') +
				(100 * x.rel).toFixed(1) + ' %)' : ' (new)'),
			'inclusive ' + what + '  base ' + ms(nd.v[2 + c]) + '   head ' + ms(nd.v[c]),
			nd === fg.root ? '' : '(medians over the runs; self CPU includes callees under 1 %)'];
	}
	/* What was drawn, for tests: counts by state and the reddest node. */
	function diffInit() {
		var count, top, nred;
		fg.paint = diffPaint;
		fg.mark = function (nd) { var st = diffOf(nd).st; return st === 3 ? '[+] ' : st === 4 ? '[-] ' : ''; };
		fg.reset = function () { count = [0, 0, 0, 0, 0]; top = null; nred = 0; };
		fg.drawn = function (nd) {
			var x = diffOf(nd);
			if (nd === fg.root) return;
			count[x.st]++;
			if (red(x)) nred++;
			var sat = Math.min(1, x.rel / 0.5);   /* the reddest: most saturated, then the largest delta */
			if (red(x) && (!top || sat > top.sat || (sat === top.sat && x.d > top.d)))
				top = { nd: nd, sat: sat, d: x.d };
		};
		fg.done = function () {
			STATES.forEach(function (s, i) { fg.wrap.setAttribute('data-diff-' + s, String(count[i])); });
			fg.wrap.setAttribute('data-diff-red', String(nred));
			fg.wrap.setAttribute('data-diff-reddest', top ? top.nd.name : '');
			fg.wrap.setAttribute('data-diff-reddest-delta', top ? String(top.d) : '');
			fg.wrap.setAttribute('data-diff-measure', String(fg.wi));
		};
		byId('fg-measure').addEventListener('change', function (e) { fg.wi = +e.target.value; fgRender(); });
	}

	function fgInit() {
		var sel = byId('fg-thread');
		if (D.diff) diffInit();
		if (!D.flame.threads.length) {
			byId('fg-note').textContent = 'No call tree in this trace.';
			fg.wrap.setAttribute('data-flame-frames', '0');
			return;
		}
		D.flame.threads.forEach(function (th, i) {
			var o = document.createElement('option');
			o.value = String(i);
			o.textContent = th.name + ' (tid ' + th.tid + ')' + (th.main ? ', main' : '');
			sel.appendChild(o);
		});
		sel.addEventListener('change', function () { fgThread(+sel.value); });
		byId('fg-search').addEventListener('input', function (e) { fgSearch(e.target.value); });
		byId('fg-reset').addEventListener('click', function () { fg.zoom = fg.root; fgRender(); });
		fg.canvas.addEventListener('click', function (ev) {
			var nd = fgHit(ev);
			if (nd) { fg.zoom = nd; fgRender(); }
		});
		fg.canvas.addEventListener('mousemove', function (ev) {
			var nd = fgHit(ev);
			if (nd) fgTip(nd, ev); else hideTip();
		});
		fg.canvas.addEventListener('mouseleave', hideTip);
		fgThread(0);
	}

	/* ---- timeline ------------------------------------------------------- */

	var SL = 10, MS = 4;   /* strides of slices and messages */
	var GUTTER = 150, AXIS = 22, LANE = 16, ROW = 14, WAKER = 14, MAX_ARROWS = 200;
	var TL = D.timeline;
	var tl = { canvas: byId('tl-canvas'), wrap: byId('tl-wrap'), a: 0, b: 1, lo: 0, hi: 1, drag: null };

	function tlPrepare() {
		var i, d, s = TL.slices, maxDepth = -1;
		tl.lo = 0;
		tl.hi = Math.max(1, TL.span_ns);
		tl.byDepth = [];
		for (i = 0; i < s.length; i += SL) {
			d = s[i + 2];
			if (d > maxDepth) maxDepth = d;
			(tl.byDepth[d] = tl.byDepth[d] || []).push(i);
			tl.lo = Math.min(tl.lo, s[i]);
			tl.hi = Math.max(tl.hi, s[i] + s[i + 1]);
		}
		tl.byDepth.forEach(function (l) { l.sort(function (x, y) { return s[x] - s[y]; }); });
		tl.msgIdx = [];
		for (i = 0; i < TL.messages.length; i += MS) {
			tl.msgIdx.push(i);
			tl.hi = Math.max(tl.hi, TL.messages[i] + TL.messages[i + 1]);
		}
		tl.waits = TL.waits.slice().sort(function (x, y) { return x[0] - y[0]; });
		tl.waits.forEach(function (w) { tl.hi = Math.max(tl.hi, w[0] + w[1]); });
		tl.depths = maxDepth + 1;
		/* Wakers' lanes sit between the messages and the waits, so arrows stay short. */
		tl.yMsg = AXIS + 2;
		tl.yWaker = tl.yMsg + LANE + 4;
		tl.wakerY = {};
		TL.threads.slice(1).forEach(function (t, k) { tl.wakerY[t[0]] = tl.yWaker + k * (WAKER + 2); });
		tl.yWait = tl.yWaker + (TL.threads.length - 1) * (WAKER + 2) + 4;
		tl.ySlice = tl.yWait + LANE + 4;
		tl.height = tl.ySlice + Math.max(1, tl.depths) * ROW + 6;
		tl.a = tl.lo;
		tl.b = tl.hi;
	}

	function tlX(t) { return GUTTER + (t - tl.a) / (tl.b - tl.a) * (tl.W - GUTTER); }
	function tlT(x) { return tl.a + (x - GUTTER) / (tl.W - GUTTER) * (tl.b - tl.a); }

	function tlAxis(ctx) {
		var span = tl.b - tl.a, step = Math.pow(10, Math.floor(Math.log10(span / 8))), t;
		if (span / step > 20) step *= 5; else if (span / step > 10) step *= 2;
		ctx.fillStyle = '#5b6475';
		ctx.strokeStyle = '#e3e6ec';
		for (t = Math.ceil(tl.a / step) * step; t <= tl.b; t += step) {
			var x = Math.round(tlX(t)) + 0.5;
			ctx.beginPath();
			ctx.moveTo(x, AXIS - 4);
			ctx.lineTo(x, tl.height);
			ctx.stroke();
			ctx.fillText(step >= 1e9 ? t / 1e9 + ' s' : ms(t), x + 3, AXIS / 2);
		}
	}

	function tlLabels(ctx) {
		ctx.fillStyle = '#f5f7fa';
		ctx.fillRect(0, 0, GUTTER - 4, tl.height);
		ctx.fillStyle = '#1d2433';
		ctx.fillText('Looper messages', 6, tl.yMsg + LANE / 2);
		ctx.fillText('waits', 6, tl.yWait + LANE / 2);
		ctx.fillText(fit(TL.threads[0][1] + ' ' + TL.threads[0][0], GUTTER - 8), 6, tl.ySlice + ROW / 2);
		TL.threads.slice(1).forEach(function (t) {
			ctx.fillText(fit(t[1] + ' ' + t[0], GUTTER - 8), 6, tl.wakerY[t[0]] + WAKER / 2);
		});
	}

	/* A bar from t0 lasting dur at y; false when out of view or too thin. */
	function bar(ctx, t0, dur, y, h, fill, label) {
		var x1 = tlX(t0), x2 = tlX(t0 + dur);
		if (x2 < GUTTER || x1 > tl.W || x2 - x1 < 0.3) return false;
		x1 = Math.max(x1, GUTTER);
		x2 = Math.min(x2, tl.W);
		ctx.fillStyle = fill;
		ctx.fillRect(x1, y, Math.max(x2 - x1 - 0.5, 0.5), h);
		if (label && x2 - x1 > 40) {
			ctx.fillStyle = '#1d2433';
			ctx.fillText(fit(label, x2 - x1), x1 + 3, y + h / 2);
		}
		return true;
	}

	function arrow(ctx, x1, y1, x2, y2) {
		var a = Math.atan2(y2 - y1, x2 - x1);
		ctx.beginPath();
		ctx.moveTo(x1, y1);
		ctx.lineTo(x2, y2);
		ctx.stroke();
		ctx.beginPath();
		ctx.moveTo(x2, y2);
		ctx.lineTo(x2 - 8 * Math.cos(a - 0.4), y2 - 8 * Math.sin(a - 0.4));
		ctx.lineTo(x2 - 8 * Math.cos(a + 0.4), y2 - 8 * Math.sin(a + 0.4));
		ctx.closePath();
		ctx.fill();
		ctx.beginPath();
		ctx.arc(x1, y1, 2.5, 0, 2 * Math.PI);
		ctx.fill();
	}

	/* Arrows for the longest waits in view (TL.waits comes longest first):
	 * thousands of them would only paint the lanes over. */
	function tlArrows(ctx) {
		var n = 0, list = [], t0 = BigInt(TL.t0);
		ctx.strokeStyle = ctx.fillStyle = 'rgba(47, 111, 223, 0.75)';
		ctx.lineWidth = 1.2;
		TL.waits.forEach(function (w) {
			if (w[3] === null || n >= MAX_ARROWS) return;
			var x1 = tlX(w[4]), y1 = tl.wakerY[w[3]] + WAKER / 2, x2 = tlX(w[0] + w[1]), y2 = tl.yWait + LANE / 2;
			if (Math.max(x1, x2) < GUTTER || Math.min(x1, x2) > tl.W) return;
			arrow(ctx, x1, y1, x2, y2);
			n++;
			list.push(w[3] + ' ' + (t0 + BigInt(w[4])) + ' -> ' + TL.threads[0][0] + ' ' + (t0 + BigInt(w[0] + w[1])) + ' ' + w[2]);
		});
		ctx.lineWidth = 1;
		byId('tl-arrows').textContent = list.join('\n');
		return n;
	}

	function tlRender() {
		var ctx, s = TL.slices, i, nSl = 0, nMsg = 0, nWait = 0, nArrow;
		tl.W = Math.max(400, tl.wrap.clientWidth);
		ctx = sized(tl.canvas, tl.W, tl.height);
		tlAxis(ctx);
		ctx.save();
		ctx.beginPath();
		ctx.rect(GUTTER, 0, tl.W - GUTTER, tl.height);
		ctx.clip();
		for (i = 0; i < TL.messages.length; i += MS)
			if (bar(ctx, TL.messages[i], TL.messages[i + 1], tl.yMsg, LANE, TL.messages[i + 3] % 2 ? '#7fa7e6' : '#a9c4ee',
				'msg ' + TL.messages[i + 3])) nMsg++;
		tl.waits.forEach(function (w) {
			if (bar(ctx, w[0], w[1], tl.yWait, LANE, w[3] === null ? '#b0b6c2' : '#e57373', w[2])) nWait++;
		});
		for (i = 0; i < s.length; i += SL)
			if (bar(ctx, s[i], s[i + 1], tl.ySlice + s[i + 2] * ROW, ROW - 1, color(NAMES[s[i + 3]]), NAMES[s[i + 3]])) nSl++;
		ctx.fillStyle = '#d9dde5';
		TL.threads.slice(1).forEach(function (t) { ctx.fillRect(GUTTER, tl.wakerY[t[0]] + WAKER / 2, tl.W - GUTTER, 1); });
		nArrow = tlArrows(ctx);
		ctx.restore();
		tlLabels(ctx);
		tl.wrap.setAttribute('data-tl-slices', String(nSl));
		tl.wrap.setAttribute('data-tl-messages', String(nMsg));
		tl.wrap.setAttribute('data-tl-waits', String(nWait));
		tl.wrap.setAttribute('data-tl-arrows', String(nArrow));
		tl.wrap.setAttribute('data-tl-view', Math.round(tl.a) + ' ' + Math.round(tl.b));
	}

	/* The last of sorted items starting at or before t that covers t (with
	 * a few pixels' slack), or -1. */
	function cover(items, start, dur, t, slack) {
		var lo = 0, hi = items.length;
		while (lo < hi) {
			var mid = (lo + hi) >> 1;
			if (start(items[mid]) <= t + slack) lo = mid + 1; else hi = mid;
		}
		for (var k = lo - 1; k >= 0 && k >= lo - 4; k--)
			if (start(items[k]) + dur(items[k]) >= t - slack) return k;
		return -1;
	}

	function tlTip(ev) {
		var r = tl.canvas.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top;
		var t = tlT(x), slack = 2 * (tl.b - tl.a) / (tl.W - GUTTER), s = TL.slices, m = TL.messages, k, i;
		if (x < GUTTER) return hideTip();
		if (y >= tl.yMsg && y < tl.yMsg + LANE) {
			var idx = tl.msgIdx;
			k = cover(idx, function (j) { return m[j]; }, function (j) { return m[j + 1]; }, t, slack);
			if (k >= 0) {
				i = idx[k];
				return showTip(['Looper message ' + m[i + 3], 'at ' + ms(m[i]) + ', for ' + ms(m[i + 1]),
					'CPU ' + ms(m[i + 2])], ev);
			}
		} else if (y >= tl.yWait && y < tl.yWait + LANE) {
			k = cover(tl.waits, function (w) { return w[0]; }, function (w) { return w[1]; }, t, slack);
			if (k >= 0) {
				var w = tl.waits[k];
				return showTip([w[2] + ' wait', 'at ' + ms(w[0]) + ', for ' + ms(w[1]),
					w[3] === null ? 'waker unknown' : 'ended by tid ' + w[3] + ' at ' + ms(w[4])], ev);
			}
		} else if (y >= tl.ySlice && y < tl.ySlice + tl.depths * ROW) {
			var row = tl.byDepth[Math.floor((y - tl.ySlice) / ROW)] || [];
			k = cover(row, function (j) { return s[j]; }, function (j) { return s[j + 1]; }, t, slack);
			if (k >= 0) {
				i = row[k];
				return showTip([NAMES[s[i + 3]], 'at ' + ms(s[i]) + ', for ' + ms(s[i + 1]) + ' (self ' + ms(s[i + 5]) + ')',
					'CPU ' + ms(s[i + 4]) + ', off-CPU ' + ms(s[i + 1] - s[i + 4]) + ', blocked ' + ms(s[i + 6]),
					'allocated ' + bytes(s[i + 7]) + ', ' + s[i + 8] + ' objects; page faults ' + s[i + 9]], ev);
			}
		}
		hideTip();
	}

	/* Show [a, b], kept inside the trace and at least a microsecond wide. */
	function tlView(a, b) {
		var span = Math.min(Math.max(b - a, 1000), tl.hi - tl.lo);
		a = Math.min(Math.max(a, tl.lo), tl.hi - span);
		tl.a = a;
		tl.b = a + span;
		tlRender();
	}

	function tlInit() {
		if (!TL) {
			if (byId('tl-note')) byId('tl-note').textContent = 'No thread to show.';
			return;
		}
		tlPrepare();
		byId('tl-note').textContent = TL.threads[0][1] + ' (tid ' + TL.threads[0][0] + '): ' +
			TL.messages.length / MS + ' of ' + TL.messages_total + ' Looper messages; ' +
			sliceCount() + ' of ' + TL.slices_total + ' slices (those of at least ' + ms(TL.slices_min_ns) +
			', the longest first; ' + (TL.slices_total - sliceCount()) + ' left out); ' +
			TL.waits.length + ' of ' + TL.waits_total + ' waits, ' +
			TL.waits.filter(function (w) { return w[3] !== null; }).length + ' with a known waker.';
		tl.canvas.addEventListener('wheel', function (ev) {
			var r = tl.canvas.getBoundingClientRect(), t = tlT(ev.clientX - r.left), f = Math.exp(ev.deltaY * 0.002);
			ev.preventDefault();
			tlView(t - (t - tl.a) * f, t + (tl.b - t) * f);
		}, { passive: false });
		tl.canvas.addEventListener('mousedown', function (ev) {
			tl.drag = { x: ev.clientX, a: tl.a, b: tl.b };
			tl.canvas.style.cursor = 'grabbing';
		});
		window.addEventListener('mousemove', function (ev) {
			if (!tl.drag) return;
			var dt = (ev.clientX - tl.drag.x) / (tl.W - GUTTER) * (tl.drag.b - tl.drag.a);
			tlView(tl.drag.a - dt, tl.drag.b - dt);
		});
		window.addEventListener('mouseup', function () {
			tl.drag = null;
			tl.canvas.style.cursor = '';
		});
		tl.canvas.addEventListener('mousemove', function (ev) { if (!tl.drag) tlTip(ev); });
		tl.canvas.addEventListener('mouseleave', hideTip);
		byId('tl-reset').addEventListener('click', function () { tlView(tl.lo, tl.hi); });
		tlRender();
	}

	function sliceCount() { return TL.slices.length / SL; }

	/* ---- tables --------------------------------------------------------- */

	function sortable(table) {
		var heads = table.tHead.rows[0].cells;
		Array.prototype.forEach.call(heads, function (th, col) {
			th.addEventListener('click', function () {
				var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
				var dir = th.getAttribute('data-dir') === 'desc' ? 'asc' : 'desc', sign = dir === 'asc' ? 1 : -1;
				Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('data-dir'); });
				th.setAttribute('data-dir', dir);
				rows.sort(function (x, y) {
					var a = x.cells[col], b = y.cells[col], va = a.getAttribute('data-v'), vb = b.getAttribute('data-v');
					if (va !== null && vb !== null) return sign * (va - vb);
					return sign * a.textContent.localeCompare(b.textContent);
				});
				rows.forEach(function (r) { body.appendChild(r); });
			});
		});
	}

	/* ---- self-test (#selftest) ------------------------------------------ */

	function fire(target, type, x, y, extra) {
		var init = { bubbles: true, cancelable: true, clientX: x, clientY: y, view: window }, k;
		for (k in extra || {}) init[k] = extra[k];
		target.dispatchEvent(type === 'wheel' ? new WheelEvent(type, init) : new MouseEvent(type, init));
	}

	function selftest() {
		var out = [], ok = true, r, target = null;
		function check(name, cond, detail) {
			out.push((cond ? 'ok - ' : 'not ok - ') + name + (detail === undefined ? '' : ' # ' + detail));
			if (!cond) ok = false;
		}
		if (fg.root) {
			var frames = +fg.wrap.getAttribute('data-flame-frames');
			check('flame graph drew frames', frames > 0, frames);
			fg.rects.forEach(function (b) {   /* the widest frame with callees, not full width if any */
				var W = fg.canvas.clientWidth, narrow = b.w < W - 1, tnarrow = target && target.w < W - 1;
				if (b.nd === fg.root || !b.nd.kids.length) return;
				if (!target || (narrow && !tnarrow) || (narrow === tnarrow && b.w > target.w)) target = b;
			});
			check('a frame with callees to zoom into', target !== null);
			if (target) {
				r = fg.canvas.getBoundingClientRect();
				fire(fg.canvas, 'click', r.left + target.x + target.w / 2, r.top + target.y + RH / 2);
				check('click zooms into the frame', fg.zoom === target.nd &&
					fg.wrap.getAttribute('data-flame-zoom') === target.nd.name, fg.wrap.getAttribute('data-flame-zoom'));
				var full = fg.rects.filter(function (b) { return b.nd === target.nd; })[0];
				check('the zoomed frame spans the width', full && full.x === 0 && full.w >= fg.canvas.clientWidth - 1,
					full && full.w);
				fire(fg.canvas, 'mousemove', r.left + 5, r.top + target.y + RH / 2);
				check('hover shows the frame\'s self and inclusive times', !tip.hidden &&
					tip.textContent.indexOf(target.nd.name) === 0 && /self/.test(tip.textContent) &&
					(D.diff ? /base .* head /.test(tip.textContent) && /delta /.test(tip.textContent)
						: /CPU/.test(tip.textContent) && /page faults/.test(tip.textContent)));
				var term = target.nd.name.slice(-Math.min(12, target.nd.name.length));
				var box = byId('fg-search');
				box.value = term;
				box.dispatchEvent(new Event('input', { bubbles: true }));
				var n = +fg.wrap.getAttribute('data-flame-matches'), share = +fg.wrap.getAttribute('data-flame-match-pct');
				var least = 100 * target.nd.v[0] / fg.root.v[0];
				check('search matches frames', n > 0 && +fg.wrap.getAttribute('data-flame-highlighted') > 0, n);
				check('matched share is the matches\' wall time', share >= least - 1e-3 && share <= 100 + 1e-3,
					share + ' >= ' + least.toFixed(4));
				check('the share is shown', /% of the thread/.test(byId('fg-match').textContent));
				box.value = '';
				box.dispatchEvent(new Event('input', { bubbles: true }));
				byId('fg-reset').click();
				check('reset zooms out', fg.zoom === fg.root);
			}
		}
		if (TL) {
			var span = tl.b - tl.a, a0 = tl.a;
			r = tl.canvas.getBoundingClientRect();
			fire(tl.canvas, 'wheel', r.left + GUTTER + (tl.W - GUTTER) / 2, r.top + tl.ySlice, { deltaY: -400 });
			check('wheel zooms the timeline', tl.b - tl.a < span / 2, (tl.b - tl.a) + ' < ' + span);
			var zoomed = tl.a;
			fire(tl.canvas, 'mousedown', r.left + GUTTER + 200, r.top + tl.ySlice);
			fire(window, 'mousemove', r.left + GUTTER + 300, r.top + tl.ySlice);
			fire(window, 'mouseup', r.left + GUTTER + 300, r.top + tl.ySlice);
			check('drag pans the timeline', tl.a < zoomed, tl.a + ' < ' + zoomed);
			byId('tl-reset').click();
			check('reset shows the whole trace', tl.a === a0 && tl.b - tl.a === span);
		}
		byId('bt-selftest').textContent = out.join('\n');
		byId('bt-selftest').hidden = false;
		document.documentElement.setAttribute('data-selftest', ok ? 'pass' : 'fail');
	}

	fgInit();
	tlInit();
	Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), sortable);
	window.addEventListener('resize', function () {
		if (fg.root) fgRender();
		if (TL) tlRender();
	});
	if (location.hash === '#selftest') selftest();
	document.documentElement.setAttribute('data-render-ms', String(Math.round(performance.now() - started)));
	document.documentElement.setAttribute('data-ready', '1');
}());
