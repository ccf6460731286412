/* timeline.js: the HTML report's timeline (BT.tl): a lane per thread,
 * main first, each with its Looper messages, its waits and its slices by
 * depth, unpacked from #bt-slices (html_int.h: four varints a slice, in
 * the order they ended). Only what is in view is drawn: a row's slices
 * are found by binary search, and those narrower than a pixel merge into
 * one bar coloured by what they mostly are, so a trace of millions of
 * slices draws in milliseconds at any zoom. Arrows run from the waker's
 * slice at the wake to the end of the wait it ended, across lanes. Wheel
 * zooms (down to 10 us), drag pans, the scrollbar or shift+wheel scrolls
 * the lanes, a click on a thread's name folds its deeper rows. Above the
 * main thread's lane, a track of its display frames (html_int.h: twelve
 * values a frame): janky ones marked over the others, darker the more
 * vsyncs they missed, with their deadline as a tick once wide enough; a
 * click on a frame zooms to it, its main-thread slices in view. */
(function () {
	'use strict';

	var BT = window.BT, D = BT.D, TL = D.timeline, byId = BT.byId, ms = BT.ms, NAMES = BT.NAMES, KIND = BT.KIND;
	var GUTTER = 84, AXIS = 24, HEAD = 18, STRIP = 12, ROW = 14, FOLD = 8, GAP = 6, BAND = 8;
	function stateColor(k) { return BT.STATE_COLOR[TL.states[k]] || BT.STATE_COLOR.other; }
	var MAX_ARROWS = 200, FEW = 30, MIN_SPAN = 10000, BOX = 1.5;
	/* A frame's values (html_int.h), and the frames track's height. */
	var FS = 12, F_MAIN = 2, F_AGO = 3, F_DEADLINE = 4, F_JANKY = 5, F_MISSED = 6, F_ID = 7, F_VSYNC = 8, F_DRAW = 9,
		F_CAUSE = 11, FTRACK = 14, TICK = 6, GROUP = 20;
	var FR = TL && TL.frames;
	var tl = BT.tl = { canvas: byId('tl-canvas'), wrap: byId('tl-wrap'), space: byId('tl-space'), a: 0, b: 1,
		lo: 0, hi: 1, lanes: [], byTid: {}, drag: null, mark: null, top: 0, frames: null, yFrames: -1 };

	/* ---- unpacking -------------------------------------------------------- */

	function bytes() {
		var el = byId('bt-slices'), text = el ? el.textContent : '', s, u, i;
		if (Uint8Array.fromBase64) {
			u = Uint8Array.fromBase64(text);
		} else {
			s = atob(text);
			u = new Uint8Array(s.length);
			for (i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
		}
		if (el) el.parentNode.removeChild(el);   /* the lanes hold it now */
		BT.phase('base64');
		return u;
	}

	function row(n) {
		return { s: new Float64Array(n), e: new Float64Array(n), pe: null, f: new Uint32Array(n), c: new Uint8Array(n), n: 0 };
	}

	/* Rows sorted by start, and pe, the running maximum of the ends, for
	 * the binary searches (a lane's own rows have their ends in order). */
	function finish(r) {
		var k, sorted = true, mono = true;
		for (k = 1; k < r.n; k++) {
			if (r.s[k] < r.s[k - 1]) sorted = false;
			if (r.e[k] < r.e[k - 1]) mono = false;
		}
		if (!sorted) {
			var ix = [], o = row(r.n);
			for (k = 0; k < r.n; k++) ix.push(k);
			ix.sort(function (x, y) { return r.s[x] - r.s[y]; });
			ix.forEach(function (j, q) { o.s[q] = r.s[j]; o.e[q] = r.e[j]; o.f[q] = r.f[j]; o.c[q] = r.c[j]; });
			o.n = r.n;
			if (r.w) o.w = Int32Array.from(ix, function (j) { return r.w[j]; });
			r = o;
			mono = false;
		}
		r.pe = r.e;
		if (!mono) {
			r.pe = new Float64Array(r.n);
			for (k = 0; k < r.n; k++) r.pe[k] = k ? Math.max(r.pe[k - 1], r.e[k]) : r.e[k];
		}
		return r;
	}

	/* A lane's slices from its bytes (html_int.h): one loop, the varints
	 * read inline (the common one-byte case first), small numbers kept
	 * in integer arithmetic. */
	function decode(L, buf) {
		var rows = L.depths.map(row), p = L.off, end = L.off + L.len, e = L.base, d = 0, v, b, m, x, r, k, s;
		var nd = rows.length + 1, first = new Float64Array(nd), has = new Uint8Array(nd), top = 0;
		while (p < end) {
			b = buf[p++];
			if (b < 128) v = b; else { v = b & 127; m = 128; do { b = buf[p++]; v += (b & 127) * m; m *= 128; } while (b >= 128); }
			e += v < 0x40000000 ? (v >>> 1) ^ -(v & 1) : v % 2 ? -(v + 1) / 2 : v / 2;
			b = buf[p++];
			if (b < 128) v = b; else { v = b & 127; m = 128; do { b = buf[p++]; v += (b & 127) * m; m *= 128; } while (b >= 128); }
			x = (v / 11) | 0;
			k = v - 11 * x;   /* CPU share in tenths */
			d += (x >>> 1) ^ -(x & 1);
			b = buf[p++];
			if (b < 128) v = b; else { v = b & 127; m = 128; do { b = buf[p++]; v += (b & 127) * m; m *= 128; } while (b >= 128); }
			if (d < 0 || d >= nd - 1) break;   /* cannot be: the depths cover every slice */
			if (d + 1 < top && has[d + 1] === 1)
				s = first[d + 1] - (v < 0x40000000 ? (v >>> 1) ^ -(v & 1) : v % 2 ? -(v + 1) / 2 : v / 2);
			else
				s = e - v;
			for (x = d + 1; x < top; x++) has[x] = 0;
			if (has[d] === 0) { first[d] = s; has[d] = 1; }
			top = d + 1;
			b = buf[p++];
			if (b < 128) v = b; else { v = b & 127; m = 128; do { b = buf[p++]; v += (b & 127) * m; m *= 128; } while (b >= 128); }
			r = rows[d];
			if (r.n >= r.s.length) continue;
			x = r.n++;
			r.s[x] = s * 1000;
			r.e[x] = e * 1000;
			r.f[x] = v;
			r.c[x] = k * 10;
		}
		return rows.map(finish);
	}

	/* Messages, waits and frames as rows: flat arrays of stride S, start
	 * at 0, duration at 1; w, each item's index in flat; only those keep
	 * takes, if given. */
	function strip(flat, S, keep) {
		var n = flat.length / S, r = row(n), k, m = 0;
		r.w = new Int32Array(n);
		for (k = 0; k < n; k++) {
			if (keep && !keep(k)) continue;
			r.s[m] = flat[k * S];
			r.e[m] = flat[k * S] + flat[k * S + 1];
			r.w[m++] = k;
		}
		r.n = m;
		return finish(r);
	}

	function prepare() {
		var buf = bytes();
		tl.lo = 0;
		tl.hi = Math.max(1, TL.span_ns);
		tl.lanes = TL.lanes.map(function (L) {
			var lane = { L: L, tid: L.tid, rows: decode(L, buf), msg: L.msgs.length ? strip(L.msgs, 4) : null,
				wait: L.waits.length ? strip(L.waits, 5) : null, state: L.states ? strip(L.states, 3) : null };
			lane.open = L.main || !TL.lanes[0] || TL.lanes[0].tid === L.tid;
			lane.rows.concat([lane.msg, lane.wait, lane.state]).forEach(function (r) {
				if (!r || !r.n) return;
				tl.lo = Math.min(tl.lo, r.s[0]);
				tl.hi = Math.max(tl.hi, r.pe[r.n - 1]);
			});
			tl.byTid[L.tid] = lane;
			return lane;
		});
		/* A capture of several processes: each process's lanes together,
		 * the lead's first, in the order TL.processes gives (stable). */
		if (TL.processes) {
			var rank = {};
			TL.processes.forEach(function (p, k) { rank[p[0]] = k; });
			var at = function (lane) { return lane.L.pid in rank ? rank[lane.L.pid] : TL.processes.length; };
			tl.lanes = tl.lanes.map(function (lane, k) { return { lane: lane, k: k }; }).sort(function (x, y) {
				return at(x.lane) - at(y.lane) || x.k - y.k;
			}).map(function (x) { return x.lane; });
		}
		/* Arrows, the longest waits first: at most MAX_ARROWS are drawn. */
		tl.arrows = [];
		tl.lanes.forEach(function (lane) {
			var w = lane.L.waits, k;
			for (k = 0; k < w.length; k += 5)
				if (w[k + 3] >= 0 && tl.byTid[w[k + 3]])
					tl.arrows.push({ ts: w[k], dur: w[k + 1], kind: TL.kinds[w[k + 2]], wtid: w[k + 3], wts: w[k + 4], lane: lane });
		});
		tl.arrows.sort(function (x, y) { return y.dur - x.dur || x.ts - y.ts; });
		/* Frames: all of them, and the janky ones drawn over them (html_frames.c
		 * keeps them inside the trace: they widen nothing). */
		if (FR && FR.rows.length) tl.frames = { all: strip(FR.rows, FS),
			janky: strip(FR.rows, FS, function (k) { return FR.rows[k * FS + F_JANKY] === 1; }) };
		tl.a = tl.lo;
		tl.b = tl.hi;
		layout();
		BT.phase('slices');
	}

	/* Where each lane sits (y from the top of the lanes), and the canvas's
	 * height: the lanes scroll under the fixed axis. */
	function layout() {
		var y = 0, folded = 0, above = -1, pid = null, groups = [];
		if (tl.frames) above = Math.max(0, tl.lanes.indexOf(tl.byTid[FR.tid]));
		tl.lanes.forEach(function (lane, k) {
			lane.group = null;
			if (TL.processes && lane.L.pid !== pid) {   /* a process's first lane: its header */
				pid = lane.L.pid;
				lane.group = TL.processes.filter(function (p) { return p[0] === pid; })[0] || [pid, null, 0];
				lane.yGroup = y;
				y += GROUP;
				groups.push(pid + ':0');
			}
			if (groups.length) {
				var g = groups[groups.length - 1].split(':');
				groups[groups.length - 1] = g[0] + ':' + (+g[1] + 1);
			}
			if (k === above) {   /* the frames track: a head and a row of frames */
				tl.yFrames = y;
				y += HEAD + FTRACK + GAP;
			}
			lane.y = y;
			y += HEAD;
			if (lane.state) { lane.yState = y; y += BAND + 2; }
			if (lane.msg) { lane.yMsg = y; y += STRIP + 2; }
			if (lane.wait) { lane.yWait = y; y += STRIP + 2; }
			lane.shown = lane.open ? lane.rows.length : Math.min(lane.rows.length, FOLD);
			folded += lane.rows.length - lane.shown;
			lane.ySlice = y;
			y += lane.shown * ROW + GAP;
			lane.h = y - lane.y;
		});
		tl.total = y;
		tl.H = Math.min(AXIS + y, Math.max(320, Math.round(window.innerHeight * 0.72)));
		tl.wrap.style.height = tl.H + 'px';
		tl.space.style.height = Math.max(0, AXIS + y - tl.H) + 'px';
		tl.wrap.setAttribute('data-tl-folded-rows', String(folded));
		if (groups.length) tl.wrap.setAttribute('data-tl-groups', groups.join('|'));   /* pid:lanes per process, in order */
	}

	/* ---- coordinates and searches ----------------------------------------- */

	function X(t) { return GUTTER + (t - tl.a) * tl.scale; }
	function T(x) { return tl.a + (x - GUTTER) / tl.scale; }

	/* First index in [lo, hi) with a[i] >= t (above: > t). */
	function search(a, t, lo, hi, above) {
		while (lo < hi) {
			var mid = (lo + hi) >> 1;
			if (above ? a[mid] <= t : a[mid] < t) lo = mid + 1; else hi = mid;
		}
		return lo;
	}

	/* Each item of r in view: box(i, x1, x2) for those at least BOX px
	 * wide, run(i, j, x1, x2) for [i, j) merged, where each is narrower
	 * and they touch within a pixel. Costs a binary search per pixel at
	 * most, however many items the row has. */
	function drawRow(r, box, run) {
		var n = r.n, s = r.s, e = r.e, pe = r.pe, sc = tl.scale, a = tl.a, i = search(pe, a, 0, n, false);
		while (i < n && s[i] <= tl.b) {
			var x1 = GUTTER + (s[i] - a) * sc, x2 = GUTTER + (e[i] - a) * sc;
			if (x2 - x1 >= BOX) { box(i, x1, x2); i++; continue; }
			var j = i + 1, rx = x2;
			for (;;) {
				var edge = Math.floor(rx) + 1, k = search(pe, a + (edge - GUTTER) / sc, j, n, true);
				if (k > j) { rx = Math.max(rx, GUTTER + (pe[k - 1] - a) * sc); j = k; }
				if (j < n) {
					var nx1 = GUTTER + (s[j] - a) * sc, nx2 = GUTTER + (e[j] - a) * sc;
					if (nx1 < rx + 1 && nx2 - nx1 < BOX) { rx = Math.max(rx, nx2); j++; continue; }
				}
				break;
			}
			run(i, j, x1, Math.max(rx, x1 + 1));
			i = j;
		}
	}

	/* What [i, j) of a slice row mostly is: a few of them sampled. */
	function runColor(r, i, j) {
		var step = Math.max(1, Math.floor((j - i) / 6)), k, cnt = [0, 0, 0], cpu = 0, m = 0;
		for (k = i; k < j; k += step) {
			cnt[KIND[r.f[k]]]++;
			cpu += r.c[k];
			m++;
		}
		return BT.kindColor(cnt[0] >= cnt[1] && cnt[0] >= cnt[2] ? 0 : cnt[1] >= cnt[2] ? 1 : 2, cpu / m);
	}

	/* ---- drawing ---------------------------------------------------------- */

	/* Tick steps of 1, 2 or 5 times a power of ten, some 110 px apart;
	 * labels with the precision the step needs: seconds, milliseconds,
	 * or below 100 us the first tick to the microsecond and the others as
	 * microseconds after it. */
	function ticks() {
		var span = tl.b - tl.a, raw = span / Math.max(2, Math.floor((tl.W - GUTTER) / 110));
		var p = Math.pow(10, Math.floor(Math.log10(raw))), step = [1, 2, 5, 10].map(function (m) { return m * p; })
			.filter(function (s) { return s >= raw * 0.999; })[0];
		var k0 = Math.ceil(tl.a / step), out = [], k, t, first = null;
		for (k = k0; (t = k * step) <= tl.b; k++) {
			var label;
			if (step >= 1e8) label = (t / 1e9).toFixed(Math.max(0, -Math.floor(Math.log10(step / 1e9) + 1e-9))) + ' s';
			else if (step >= 1e5) label = (t / 1e6).toFixed(Math.max(0, -Math.floor(Math.log10(step / 1e6) + 1e-9))) + ' ms';
			else if (first === null) label = (t / 1e6).toFixed(3) + ' ms';
			else label = '+' + Math.round((t - first) / 1e3) + ' \u00b5s';
			if (first === null) first = t;
			out.push({ t: t, label: label });
		}
		return out;
	}

	function axis(ctx, list) {
		ctx.fillStyle = '#ffffff';
		ctx.fillRect(0, 0, tl.W, AXIS);
		ctx.fillStyle = '#5b6475';
		list.forEach(function (k) {
			var x = Math.round(X(k.t)) + 3;
			if (x + ctx.measureText(k.label).width <= tl.W - 2) ctx.fillText(k.label, x, AXIS / 2);
		});
		ctx.fillStyle = '#d9dde5';
		ctx.fillRect(0, AXIS - 1, tl.W, 1);
	}

	/* A bar at least a pixel wide: an instant (one sample) still shows. */
	function bar(ctx, x1, x2, y, h, fill) {
		ctx.fillStyle = fill;
		ctx.fillRect(x1, y, Math.max(x2 - x1 - 0.5, 1), h);
	}
	function label(ctx, text, x1, x2, y, h, color) {
		x1 = Math.max(x1, GUTTER);
		x2 = Math.min(x2, tl.W);
		if (x2 - x1 < 40) return;
		ctx.fillStyle = color || '#1d2433';
		ctx.fillText(BT.fit(text, x2 - x1), x1 + 3, y + h / 2);
	}

	function drawLane(ctx, lane, y0, st) {
		var k, d;
		if (lane.state) drawRow(lane.state, function (i) {
			var S = lane.L.states, o = lane.state.w[i] * 3;
			bar(ctx, X(S[o]), X(S[o] + S[o + 1]), y0 + lane.yState, BAND, stateColor(S[o + 2]));
		}, function (i, j, x1, x2) {   /* many, narrower than a pixel: the state most of them are in */
			var S = lane.L.states, cnt = {}, best = -1, step = Math.max(1, Math.floor((j - i) / 8)), q;
			for (q = i; q < j; q += step) {
				var c = S[lane.state.w[q] * 3 + 2];
				cnt[c] = (cnt[c] || 0) + 1;
				if (best < 0 || cnt[c] > cnt[best]) best = c;
			}
			bar(ctx, x1, x2, y0 + lane.yState, BAND, stateColor(best));
		});
		if (lane.msg) drawRow(lane.msg, function (i, x1, x2) {
			var m = lane.L.msgs, o = lane.msg.w[i] * 4;
			bar(ctx, x1, x2, y0 + lane.yMsg, STRIP, m[o + 3] % 2 ? '#8fb3ea' : '#b4cdf2');
			label(ctx, 'msg ' + m[o + 3], x1, x2, y0 + lane.yMsg, STRIP);
		}, function (i, j, x1, x2) { bar(ctx, x1, x2, y0 + lane.yMsg, STRIP, '#8fb3ea'); });
		if (lane.wait) drawRow(lane.wait, function (i, x1, x2) {
			var w = lane.L.waits, o = lane.wait.w[i] * 5;
			bar(ctx, x1, x2, y0 + lane.yWait, STRIP, w[o + 3] >= 0 ? '#e57373' : '#b0b6c2');
			label(ctx, TL.kinds[w[o + 2]], x1, x2, y0 + lane.yWait, STRIP);
		}, function (i, j, x1, x2) { bar(ctx, x1, x2, y0 + lane.yWait, STRIP, '#e57373'); });
		for (d = 0; d < lane.shown; d++) {
			var y = y0 + lane.ySlice + d * ROW, r = lane.rows[d];
			if (y > tl.H || y + ROW < AXIS) continue;
			drawRow(r, function (i, x1, x2) {
				bar(ctx, x1, x2, y, ROW - 1, BT.sliceColor(r.f[i], r.c[i]));
				label(ctx, NAMES[r.f[i]] || '?', x1, x2, y, ROW - 1);
				st.boxes++;
				st.slices++;
			}, function (i, j, x1, x2) {   /* thinner than a slice: many of them, merged */
				bar(ctx, x1, x2, y + 2, ROW - 5, runColor(r, i, j));
				st.merged++;
				st.slices += j - i;
			});
		}
		for (k = 0; k < 3; k++) {   /* what is in the time range, drawn or not */
			var s = [lane.msg, lane.wait, lane.state][k];
			if (s) st[['msgs', 'waits', 'states'][k]] += search(s.s, tl.b, 0, s.n, true) - search(s.pe, tl.a, 0, s.n, false);
		}
	}

	/* A janky frame's colour: darker the more vsyncs it missed. */
	function jankColor(missed) { return missed >= 3 ? '#a31515' : missed === 2 ? '#d32f2f' : '#ef6c5a'; }

	/* The frames track: a frame is a box from its start to its end, the
	 * main thread's part solid and its draw's after it pale; the janky
	 * ones over the others, red, with the vsyncs they missed, a merged run
	 * of them at least 2 px wide; a frame's deadline is a tick once the
	 * frame is TICK px wide. st counts the frames and the janky marks in
	 * view, merged ones included, and the deadlines drawn. */
	function drawFrames(ctx, y0, st) {
		var R = FR.rows, y = y0 + tl.yFrames + HEAD, all = tl.frames.all, janky = tl.frames.janky;
		function box(r, i, x1, x2) {
			var k = r.w[i], o = k * FS, bad = R[o + F_JANKY] === 1, m = R[o + F_MISSED];
			var xm = Math.max(X(R[o] + Math.min(R[o + F_MAIN], R[o + 1])), x1 + 1);
			bar(ctx, x1, x2, y, FTRACK, bad ? '#f4c1ba' : '#d3eada');
			bar(ctx, x1, xm, y, FTRACK, bad ? jankColor(m) : k % 2 ? '#8cc79a' : '#a7d6b1');
			label(ctx, bad ? m + ' vsync' + (m === 1 ? '' : 's') + ' missed' : 'frame ' + R[o + F_ID], x1, xm, y, FTRACK,
				bad ? '#ffffff' : null);
			var xd = Math.round(X(R[o] + R[o + F_DEADLINE]));
			if (x2 - x1 >= TICK && xd >= GUTTER && xd <= tl.W) {   /* counted where seen */
				ctx.fillStyle = '#1d2433';
				ctx.fillRect(xd - 1, y - 2, 2, FTRACK + 4);
				st.deadlines++;
			}
		}
		drawRow(all, function (i, x1, x2) {
			if (R[all.w[i] * FS + F_JANKY] !== 1) box(all, i, x1, x2);
			st.frames++;
		}, function (i, j, x1, x2) {
			bar(ctx, x1, x2, y + 2, FTRACK - 4, '#a7d6b1');
			st.frames += j - i;
		});
		drawRow(janky, function (i, x1, x2) {
			box(janky, i, x1, x2);
			st.janky++;
		}, function (i, j, x1, x2) {
			var m = 0, k;
			for (k = i; k < j; k++) m = Math.max(m, R[janky.w[k] * FS + F_MISSED]);
			bar(ctx, x1, Math.max(x2, x1 + 2.5), y, FTRACK, jankColor(m));
			st.janky += j - i;
		});
	}

	/* The y of the deepest shown slice of lane at t, or its header's. */
	function activityY(lane, t) {
		for (var d = lane.shown - 1; d >= 0; d--) {
			var r = lane.rows[d], i = search(r.s, t, 0, r.n, true) - 1;
			if (i >= 0 && r.e[i] >= t) return { y: lane.ySlice + d * ROW + ROW / 2, row: r, i: i };
		}
		return { y: lane.y + HEAD / 2, row: null, i: -1 };
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

	/* Arrows for the longest waits in view: thousands would only paint the
	 * lanes over, so past FEW of them only waits a pixel wide or more get
	 * one. The list (for tests) gives absolute times. */
	function arrows(ctx) {
		var n = 0, list = [], t0 = BigInt(TL.t0), k, top = AXIS - tl.top, inView = [];
		for (k = 0; k < tl.arrows.length; k++) {
			var a = tl.arrows[k], ax1 = X(a.wts), ax2 = X(a.ts + a.dur);
			if (Math.max(ax1, ax2) >= GUTTER && Math.min(ax1, ax2) <= tl.W) inView.push(a);
		}
		ctx.strokeStyle = ctx.fillStyle = inView.length > FEW ? 'rgba(47, 111, 223, 0.55)' : 'rgba(47, 111, 223, 0.85)';
		ctx.lineWidth = 1.2;
		for (k = 0; k < inView.length && n < MAX_ARROWS; k++) {
			var w = inView[k], x1 = X(w.wts), x2 = X(w.ts + w.dur);
			if (inView.length > FEW && w.dur * tl.scale < 1) continue;
			var from = tl.byTid[w.wtid], y1 = top + activityY(from, w.wts).y, y2 = top + w.lane.yWait + STRIP / 2;
			arrow(ctx, x1, y1, x2, y2);
			n++;
			list.push(w.wtid + ' ' + (t0 + BigInt(w.wts)) + ' -> ' + w.lane.tid + ' ' + (t0 + BigInt(w.ts + w.dur)) + ' ' + w.kind);
		}
		ctx.lineWidth = 1;
		byId('tl-arrows').textContent = list.join('\n');
		return n;
	}

	/* A finding's place (tlFocus): a band across the lanes. */
	function mark(ctx) {
		var m = tl.mark, x1, x2, lane;
		if (!m) return;
		x1 = X(m.ts);
		x2 = Math.max(X(m.ts + m.dur), x1 + 2);
		ctx.fillStyle = 'rgba(255, 196, 0, 0.22)';
		ctx.fillRect(x1, AXIS, x2 - x1, tl.H - AXIS);
		if ((lane = tl.byTid[m.tid])) {
			ctx.strokeStyle = 'rgba(214, 140, 0, 0.95)';
			ctx.lineWidth = 2;
			ctx.strokeRect(x1, AXIS - tl.top + lane.y + 1, x2 - x1, lane.h - GAP);
			ctx.lineWidth = 1;
		}
	}

	/* The frames track's head and gutter. */
	function framesHead(ctx) {
		var y = AXIS - tl.top + tl.yFrames, main = tl.byTid[FR.tid], x;
		if (y > tl.H || y + HEAD + FTRACK < AXIS) return;
		ctx.fillStyle = '#f6e7e5';
		ctx.fillRect(0, y, tl.W, HEAD - 2);
		ctx.fillStyle = '#1d2433';
		ctx.font = 'bold 11px system-ui, sans-serif';
		ctx.fillText('Display frames', 6, y + HEAD / 2 - 1);
		x = 6 + ctx.measureText('Display frames').width + 16;
		ctx.font = '11px system-ui, sans-serif';
		ctx.fillStyle = '#5b6475';
		ctx.fillText(BT.count(FR.total) + ' frames of ' + (main ? main.L.name : 'tid ' + FR.tid) + ', ' + BT.count(FR.janky) +
			' janky (' + BT.pct(FR.janky, FR.total) + '), ' + BT.count(FR.missed) + ' vsyncs missed' +
			(FR.period_ns > 0 ? ', ' + Math.round(1e9 / FR.period_ns) + ' Hz' : '') +
			(all() < FR.total ? '; the first ' + BT.count(all()) + ' shown' : '') + '; click a frame to zoom to it',
			x, y + HEAD / 2 - 1);
		ctx.fillStyle = '#f5f7fa';
		ctx.fillRect(0, y + HEAD - 2, GUTTER - 4, FTRACK + 2);
		ctx.fillStyle = '#5b6475';
		ctx.fillText('frames', 6, y + HEAD + FTRACK / 2);
		function all() { return FR.rows.length / FS; }
	}

	function heads(ctx) {
		if (tl.frames) framesHead(ctx);
		tl.lanes.forEach(function (lane) {
			if (!lane.group) return;
			var y = AXIS - tl.top + lane.yGroup, p = lane.group;
			if (y > tl.H || y + GROUP < AXIS) return;
			ctx.fillStyle = '#34405a';
			ctx.fillRect(0, y, tl.W, GROUP - 3);
			ctx.fillStyle = '#ffffff';
			ctx.font = 'bold 11px system-ui, sans-serif';
			ctx.fillText('process ' + (p[1] || '?') + ' (pid ' + p[0] + (p[2] ? ', the app\'s main process' : '') + ')',
				6, y + (GROUP - 3) / 2);
		});
		tl.lanes.forEach(function (lane) {
			var y = AXIS - tl.top + lane.y, L = lane.L, more = lane.rows.length - lane.shown;
			if (y > tl.H || y + lane.h < AXIS) return;
			ctx.fillStyle = L.main ? '#e4ebf7' : '#eef1f6';
			ctx.fillRect(0, y, tl.W, HEAD - 2);
			ctx.fillStyle = '#1d2433';
			ctx.font = 'bold 11px system-ui, sans-serif';
			var name = (lane.rows.length > FOLD ? (lane.open ? '\u25be ' : '\u25b8 ') : '') + L.name + ' (tid ' + L.tid +
				(L.main ? ', main' : '') + ')';
			ctx.fillText(name, 6, y + HEAD / 2 - 1);
			var x = 6 + ctx.measureText(name).width + 16;
			ctx.font = '11px system-ui, sans-serif';
			ctx.fillStyle = '#5b6475';
			ctx.fillText(BT.count(L.count) + ' slices' + (L.kept < L.count ? ' (' + BT.count(L.kept) + ' kept)' : '') +
				(L.msgs_total ? ', ' + BT.count(L.msgs_total) + ' messages' : '') +
				(L.waits_total ? ', ' + BT.count(L.waits_total) + ' waits' : '') +
				(more > 0 ? '; ' + more + ' deeper rows folded' : ''), x, y + HEAD / 2 - 1);
			ctx.fillStyle = '#f5f7fa';
			ctx.fillRect(0, y + HEAD - 2, GUTTER - 4, lane.h - HEAD - GAP + 2);
			ctx.fillStyle = '#5b6475';
			if (lane.state) ctx.fillText('states', 6, y - lane.y + lane.yState + BAND / 2);
			if (lane.msg) ctx.fillText('messages', 6, y - lane.y + lane.yMsg + STRIP / 2);
			if (lane.wait) ctx.fillText('waits', 6, y - lane.y + lane.yWait + STRIP / 2);
			if (lane.shown) ctx.fillText('slices', 6, y - lane.y + lane.ySlice + ROW / 2);
		});
	}

	function render() {
		var st = { slices: 0, boxes: 0, merged: 0, msgs: 0, waits: 0, states: 0, frames: 0, janky: 0, deadlines: 0 }, list, n;
		tl.W = Math.max(400, tl.wrap.clientWidth);
		tl.scale = (tl.W - GUTTER) / (tl.b - tl.a);
		tl.top = tl.wrap.scrollTop;
		var ctx = BT.sized(tl.canvas, tl.W, tl.H);
		list = ticks();
		heads(ctx);
		ctx.save();
		ctx.beginPath();
		ctx.rect(GUTTER, AXIS, tl.W - GUTTER, tl.H - AXIS);
		ctx.clip();
		ctx.fillStyle = '#e9ecf1';
		list.forEach(function (k) { ctx.fillRect(Math.round(X(k.t)), AXIS, 1, tl.H - AXIS); });
		tl.lanes.forEach(function (lane) { drawLane(ctx, lane, AXIS - tl.top, st); });
		if (tl.frames) drawFrames(ctx, AXIS - tl.top, st);
		mark(ctx);
		n = arrows(ctx);
		ctx.restore();
		axis(ctx, list);
		var at = tl.wrap;
		at.setAttribute('data-tl-lanes', String(tl.lanes.length));
		at.setAttribute('data-tl-slices', String(st.slices));
		at.setAttribute('data-tl-boxes', String(st.boxes));
		at.setAttribute('data-tl-merged', String(st.merged));
		at.setAttribute('data-tl-messages', String(st.msgs));
		at.setAttribute('data-tl-waits', String(st.waits));
		at.setAttribute('data-tl-states', String(st.states));
		at.setAttribute('data-tl-arrows', String(n));
		if (tl.frames) {   /* no frames track: none of these */
			at.setAttribute('data-tl-frames', String(st.frames));
			at.setAttribute('data-tl-janky', String(st.janky));
			at.setAttribute('data-tl-deadlines', String(st.deadlines));
		}
		at.setAttribute('data-tl-view', Math.round(tl.a) + ' ' + Math.round(tl.b));
		at.setAttribute('data-tl-ticks', list.map(function (k) { return k.label; }).join('|'));
	}
	tl.render = render;

	/* Show [a, b], kept inside the trace and at least MIN_SPAN wide. */
	function view(a, b) {
		var span = Math.min(Math.max(b - a, MIN_SPAN), tl.hi - tl.lo);
		a = Math.min(Math.max(a, tl.lo), tl.hi - span);
		tl.a = a;
		tl.b = a + span;
		render();
	}
	tl.view = view;

	/* ---- hover, click, focus ---------------------------------------------- */

	/* What is under the pointer: a lane and a part of it. */
	function hit(ev) {
		var r = tl.canvas.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top - AXIS + tl.top, k;
		if (ev.clientY - r.top < AXIS) return null;
		if (tl.frames && y >= tl.yFrames && y < tl.yFrames + HEAD + FTRACK + GAP)
			return { part: y < tl.yFrames + HEAD ? 'frames-head' : 'frame', x: x, t: T(x), slack: 2 / tl.scale };
		for (k = 0; k < tl.lanes.length; k++) {
			var lane = tl.lanes[k], dy = y - lane.y;
			if (dy < 0 || dy >= lane.h) continue;
			var h = { lane: lane, x: x, t: T(x), slack: 2 / tl.scale };
			if (dy < HEAD) h.part = 'head';
			else if (lane.state && y >= lane.yState && y < lane.yState + BAND) h.part = 'state';
			else if (lane.msg && y >= lane.yMsg && y < lane.yMsg + STRIP) h.part = 'msg';
			else if (lane.wait && y >= lane.yWait && y < lane.yWait + STRIP) h.part = 'wait';
			else if (y >= lane.ySlice && y < lane.ySlice + lane.shown * ROW) {
				h.part = 'slice';
				h.depth = Math.floor((y - lane.ySlice) / ROW);
			}
			return h;
		}
		return null;
	}

	/* The item of r under time t (within slack), or -1. */
	function under(r, t, slack) {
		var i = search(r.pe, t - slack, 0, r.n, false), best = -1;
		for (; i < r.n && r.s[i] <= t + slack; i++)
			if (r.e[i] >= t - slack && (best < 0 || r.e[i] - r.s[i] > r.e[best] - r.s[best])) best = i;
		return best;
	}

	/* The frame under time t (within slack), a janky one first: its index
	 * in FR.rows, or -1. */
	function frameAt(t, slack) {
		var f = tl.frames, i = under(f.janky, t, slack);
		if (i >= 0) return f.janky.w[i];
		i = under(f.all, t, slack);
		return i >= 0 ? f.all.w[i] : -1;
	}

	function frameTip(k) {
		var R = FR.rows, o = k * FS, ts = R[o], end = ts + R[o + 1], m = R[o + F_MISSED], v = R[o + F_VSYNC];
		var dl = ts + R[o + F_DEADLINE];
		return ['Frame ' + R[o + F_ID] + (v === null ? '' : ' (vsync ' + v + ')') + (R[o + F_JANKY] === 1 ? ': janky, ' + m +
			' vsync' + (m === 1 ? '' : 's') + ' missed' : ': on time'),
			'frame time ' + ms(R[o + 1]) + ', main thread ' + ms(R[o + F_MAIN]) + (R[o + F_DRAW] === null ? '' :
				', its draw from ' + ms(ts + R[o + F_DRAW]) + ' for ' + ms(R[o + F_DRAW + 1])),
			'at ' + ms(ts) + ', ' + ms(R[o + F_AGO]) + ' after its vsync; deadline at ' + ms(dl) +
				(end > dl ? ', ended ' + ms(end - dl) + ' after it' : ''),
			R[o + F_CAUSE] ? 'cause: ' + R[o + F_CAUSE] : '', 'click to zoom to it'];
	}

	function tipFor(h) {
		if (h.part === 'frame' && (h.k = frameAt(h.t, h.slack)) >= 0) return frameTip(h.k);
		if (h.part === 'frame' || h.part === 'frames-head')
			return ['Display frames of the main thread', 'red: janky (ended after their vsync\'s deadline), darker the ' +
				'more vsyncs they missed; the tick: a frame\'s deadline'];
		var lane = h.lane, L = lane.L, i, o, r;
		if (h.part === 'msg' && (i = under(lane.msg, h.t, h.slack)) >= 0) {
			o = lane.msg.w[i] * 4;
			return ['Looper message ' + L.msgs[o + 3] + ' on ' + L.name, 'at ' + ms(L.msgs[o]) + ', for ' + ms(L.msgs[o + 1]),
				'CPU ' + ms(L.msgs[o + 2])];
		}
		if (h.part === 'state' && (i = under(lane.state, h.t, h.slack)) >= 0) {
			o = lane.state.w[i] * 3;
			return [TL.states[L.states[o + 2]] + ' on ' + L.name, 'at ' + ms(L.states[o]) + ', for ' + ms(L.states[o + 1])];
		}
		if (h.part === 'wait' && (i = under(lane.wait, h.t, h.slack)) >= 0) {
			o = lane.wait.w[i] * 5;
			var w = L.waits, who = w[o + 3], from = tl.byTid[who], act = from ? activityY(from, w[o + 4]) : null;
			return [TL.kinds[w[o + 2]] + ' wait on ' + L.name, 'at ' + ms(w[o]) + ', for ' + ms(w[o + 1]),
				who < 0 ? 'waker unknown' : 'ended by ' + (from ? from.L.name + ' ' : '') + '(tid ' + who + ') at ' + ms(w[o + 4]),
				act && act.row ? 'the waker was in ' + (NAMES[act.row.f[act.i]] || '?') : ''];
		}
		if (h.part === 'slice' && (r = lane.rows[h.depth]) && (i = under(r, h.t, h.slack)) >= 0) {
			var f = r.f[i], dur = r.e[i] - r.s[i], full = BT.full(f);
			return [NAMES[f] || '?', full !== NAMES[f] ? full : '',
				BT.KINDS[KIND[f]] + ' code on ' + L.name + ', depth ' + h.depth,
				'at ' + ms(r.s[i]) + ', for ' + ms(dur),
				'CPU ' + r.c[i] + ' % (' + ms(dur * r.c[i] / 100) + '), off-CPU ' + ms(dur * (100 - r.c[i]) / 100)];
		}
		if (h.part === 'head')
			return [L.name + ' (tid ' + L.tid + ')', lane.rows.length > FOLD ? 'click to ' + (lane.open ? 'fold' : 'unfold') +
				' its rows below depth ' + FOLD : ''];
		return null;
	}

	/* What the lanes hold, for tests to check against the database: per
	 * thread (by tid) its slices, and the sums of their starts and ends
	 * (us from t0), frame ids, depths and CPU tenths. */
	tl.digest = function () {
		return tl.lanes.slice().sort(function (x, y) { return x.tid - y.tid; }).map(function (lane) {
			var n = 0, ss = 0, se = 0, sf = 0, sd = 0, sc = 0;
			lane.rows.forEach(function (r, d) {
				for (var i = 0; i < r.n; i++) {
					ss += Math.round(r.s[i] / 1000);
					se += Math.round(r.e[i] / 1000);
					sf += r.f[i];
					sc += r.c[i] / 10;
				}
				n += r.n;
				sd += d * r.n;
			});
			return [lane.tid, n, ss, se, sf, sd, sc].join(':');
		}).filter(function (x) { return !/:0:0:0:0:0:0$/.test(x); }).join(' ');
	};

	/* Show a finding's place: its time, its thread's lane scrolled to. */
	function focus(tid, ts, dur) {
		var span = Math.max(3 * dur, 2e6), c = ts + dur / 2, lane = tl.byTid[tid];
		tl.mark = { tid: tid, ts: ts, dur: dur };
		if (lane) tl.wrap.scrollTop = Math.max(0, lane.y - 4);
		byId('timeline').scrollIntoView();
		view(c - span / 2, c + span / 2);
		tl.wrap.setAttribute('data-tl-focus', tid + ' ' + ts);
	}
	tl.focus = focus;

	/* Zoom to frame k (its index in FR.rows), its vsync and its deadline
	 * (those within ten frames or periods of it: a hostile row's are not),
	 * the frame marked on the main thread's lane: its slices are what
	 * filled it. */
	function showFrame(k) {
		var R = FR.rows, o = k * FS, ts = R[o], dur = R[o + 1], near = 10 * Math.max(dur, FR.period_ns, 1e6);
		var a = Math.min(ts, Math.abs(R[o + F_AGO]) <= near ? ts - R[o + F_AGO] : ts);
		var b = Math.max(ts + dur, Math.abs(R[o + F_DEADLINE]) <= near ? ts + R[o + F_DEADLINE] : ts), pad = Math.max((b - a) / 10, 100000);
		tl.mark = { tid: FR.tid, ts: ts, dur: dur };
		tl.wrap.scrollTop = Math.max(0, tl.yFrames - 4);
		view(a - pad, b + pad);
		tl.wrap.setAttribute('data-tl-frame', String(FR.rows[o + F_ID]));
	}
	tl.showFrame = showFrame;

	function init() {
		if (!TL || !TL.lanes.length) {
			if (byId('tl-note')) byId('tl-note').textContent = 'No thread to show.';
			BT.tl = null;
			return;
		}
		prepare();
		BT.legend(byId('tl-legend'), BT.LEGEND.timeline.concat(TL.states.length ? BT.LEGEND.states : [],
			tl.frames ? BT.LEGEND.frames : []),
			'zoom in to see merged slices one by one');
		byId('tl-note').textContent = TL.lanes.length + ' threads; ' + BT.count(TL.slices_kept) + ' of ' +
			BT.count(TL.slices_total) + ' slices in the page' + (TL.min_dur_ns ? ' (those of at least ' + ms(TL.min_dur_ns) +
			'; the page keeps at most 4,000,000)' : ' (all of them)') + '; ' + tl.arrows.length + ' waits with a known waker.';
		var c = tl.canvas, pending = false;
		c.addEventListener('wheel', function (ev) {
			ev.preventDefault();
			if (ev.shiftKey) {
				tl.wrap.scrollTop += ev.deltaY || ev.deltaX;
				return;
			}
			var r = c.getBoundingClientRect(), t = T(Math.max(GUTTER, ev.clientX - r.left)), f = Math.exp(ev.deltaY * 0.002);
			view(t - (t - tl.a) * f, t + (tl.b - t) * f);
		}, { passive: false });
		c.addEventListener('mousedown', function (ev) {
			tl.drag = { x: ev.clientX, y: ev.clientY, a: tl.a, b: tl.b, top: tl.wrap.scrollTop, moved: false };
			c.style.cursor = 'grabbing';
		});
		window.addEventListener('mousemove', function (ev) {
			var g = tl.drag;
			if (!g) return;
			if (Math.abs(ev.clientX - g.x) + Math.abs(ev.clientY - g.y) > 3) g.moved = true;
			if (!g.moved) return;
			var dt = (ev.clientX - g.x) / (tl.W - GUTTER) * (g.b - g.a);
			tl.wrap.scrollTop = g.top - (ev.clientY - g.y);
			view(g.a - dt, g.b - dt);
		});
		window.addEventListener('mouseup', function (ev) {
			var g = tl.drag, h;
			tl.drag = null;
			c.style.cursor = '';
			if (!g || g.moved || !(h = hit(ev))) return;
			if (h.part === 'head' && h.lane.rows.length > FOLD) {
				h.lane.open = !h.lane.open;
				layout();
				render();
			} else if (h.part === 'frame' && (h.k = frameAt(h.t, h.slack)) >= 0) {
				showFrame(h.k);
			}
		});
		c.addEventListener('mousemove', function (ev) {
			if (tl.drag) return;
			var h = hit(ev), lines = h && tipFor(h);
			if (lines) BT.showTip(lines, ev); else BT.hideTip();
		});
		c.addEventListener('mouseleave', BT.hideTip);
		tl.wrap.addEventListener('scroll', function () {
			if (pending) return;
			pending = true;
			requestAnimationFrame(function () { pending = false; render(); });
		});
		byId('tl-reset').addEventListener('click', function () { tl.mark = null; view(tl.lo, tl.hi); });
		render();
		BT.phase('timeline');
	}
	BT.timelineInit = init;
}());
