/* report.js: the HTML report's last script: it starts the flame graph
 * (flame.js) and makes the tables sortable at once; BT.finish, called
 * once the packed slices are read, starts the timeline (timeline.js) and
 * makes each finding's time a link to its place on it. With #selftest in
 * the URL it drives the real event handlers and writes what happened into
 * #bt-selftest, for headless tests; with #only=ID it shows that section
 * alone (screenshots); with #bench it times drawings. data-first-ms is
 * the time from navigation to the flame graph drawn, data-render-ms to
 * the timeline drawn. */
(function () {
	'use strict';

	var BT = window.BT, D = BT.D, byId = BT.byId, RH = BT.RH;

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

	/* A finding's time: to the timeline, its thread's lane (the main
	 * thread's when it names none). */
	function jumps() {
		Array.prototype.forEach.call(document.querySelectorAll('a.jump'), function (a) {
			a.addEventListener('click', function (ev) {
				if (!BT.tl) return;
				ev.preventDefault();
				var tid = a.getAttribute('data-tid');
				BT.tl.focus(tid === null ? BT.tl.lanes[0].tid : +tid, +a.getAttribute('data-ts'), +a.getAttribute('data-dur'));
			});
		});
	}

	/* ---- self-test (#selftest) ------------------------------------------ */

	function fire(target, type, x, y, extra) {
		var init = { bubbles: true, cancelable: true, clientX: x, clientY: y, view: window }, k;
		for (k in extra || {}) init[k] = extra[k];
		target.dispatchEvent(type === 'wheel' ? new WheelEvent(type, init) : new MouseEvent(type, init));
	}

	function change(el, value) {
		el.value = String(value);
		el.dispatchEvent(new Event('change', { bubbles: true }));
	}

	function widths(v) { return v.rects.map(function (b) { return b.nd.name + ':' + b.w.toFixed(1); }).join(','); }

	function flameTests(check) {
		var fg = BT.fg, r, target = null, W = fg.canvas.clientWidth;
		var frames = +fg.wrap.getAttribute('data-flame-frames');
		check('flame graph drew frames', frames > 0, frames);
		fg.rects.forEach(function (b) {   /* the widest frame with callees, not full width if any */
			var narrow = b.w < W - 1, tnarrow = target && target.w < W - 1;
			if (b.nd === fg.root || !b.nd.kids.length) return;
			if (!target || (narrow && !tnarrow) || (narrow === tnarrow && b.w > target.w)) target = b;
		});
		check('a frame with callees to zoom into', target !== null);
		if (!target) return;
		r = fg.canvas.getBoundingClientRect();
		fire(fg.canvas, 'click', r.left + target.x + target.w / 2, r.top + target.y + RH / 2);
		check('click zooms into the frame', fg.zoom === target.nd &&
			fg.wrap.getAttribute('data-flame-zoom') === target.nd.name, fg.wrap.getAttribute('data-flame-zoom'));
		var full = fg.rects.filter(function (b) { return b.nd === target.nd; })[0];
		check('the zoomed frame spans the width', full && full.x === 0 && full.w >= fg.canvas.clientWidth - 1, full && full.w);
		fire(fg.canvas, 'mousemove', r.left + 5, r.top + target.y + RH / 2);
		var tip = BT.tipText();
		check('hover shows the frame\'s self and inclusive times', tip.indexOf(target.nd.name) === 0 && /self/.test(tip) &&
			(D.diff ? /base .* head /.test(tip) && /delta /.test(tip) : /CPU/.test(tip) && /page faults/.test(tip)));
		if (!D.diff && target.nd.full !== target.nd.name)
			check('the tooltip gives the full signature', tip.split('\n')[1] === target.nd.full, tip.split('\n')[1]);
		var term = target.nd.name.slice(-Math.min(12, target.nd.name.length)), box = byId('fg-search');
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
		if (!D.diff) weightTests(check, target.nd);
	}

	function weightTests(check, nd) {
		var fg = BT.fg, sel = byId('fg-weight'), wall = widths(fg), root = fg.root.v;
		change(sel, 1);
		check('weight CPU: the graph is as wide as the CPU time', +fg.wrap.getAttribute('data-flame-total') === root[1] &&
			fg.wrap.getAttribute('data-flame-weight') === '1');
		check('weight CPU: widths change', root[1] === root[0] || widths(fg) !== wall);
		change(sel, 6);
		check('weight off-CPU: wall minus CPU', +fg.wrap.getAttribute('data-flame-total') === root[0] - root[1]);
		if (D.flame.noalloc) {
			check('no allocations in the trace: no allocated-bytes weight, the note says so',
				!sel.querySelector('option[value="3"]') && /allocations not in the trace/.test(byId('fg-note').textContent) &&
				!/ allocated;/.test(byId('fg-note').textContent));
		} else {
			change(sel, 3);
			check('weight allocations: the allocated bytes', +fg.wrap.getAttribute('data-flame-total') === root[3]);
		}
		change(sel, 0);
		check('back to wall time, the same widths', widths(fg) === wall);
		if (!BT.sw) return;
		/* the deepest-reaching caller chain: a frame with a caller above it */
		var pick = null;
		fg.root.all.forEach(function (x) { if (x.depth >= 2 && (!pick || x.v[0] > pick.v[0])) pick = x; });
		check('a frame with a caller for the sandwich', pick !== null);
		if (!pick) return;
		var b = fg.rects.filter(function (q) { return q.nd === pick; })[0], r = fg.canvas.getBoundingClientRect();
		if (b) fire(fg.canvas, 'click', r.left + b.x + Math.max(1, b.w) / 2, r.top + b.y + RH / 2, { shiftKey: true });
		else BT.sw.show(pick.id);
		var up = BT.sw.up.wrap, callers = +up.getAttribute('data-sw-callers');
		check('shift-click shows its callers and callees', up.getAttribute('data-sw-method') === pick.name, up.getAttribute('data-sw-method'));
		check('the callers list its caller', callers > 0 && BT.sw.up.root.kids.some(function (k) { return k.id === pick.parent.id; }),
			callers + ' callers');
		check('the callers view is as wide as the method\'s calls', BT.sw.up.root.v[0] >= pick.v[0]);
		check('the callees view has its callees', !pick.kids.length || +BT.sw.down.wrap.getAttribute('data-sw-callees') > 0);
		check('the method list offers it', BT.sw.select.value === String(pick.id));
	}

	function distinct(labels) {
		var l = labels.split('|');
		return l.length >= 2 && l.every(function (x, i) { return l.indexOf(x) === i; });
	}

	function timelineTests(check) {
		var tl = BT.tl, at = tl.wrap, span = tl.b - tl.a, a0 = tl.a, r = tl.canvas.getBoundingClientRect(), mid;
		var withSlices = D.timeline.lanes.filter(function (L) { return L.kept > 0; }).length;
		check('a lane per thread', +at.getAttribute('data-tl-lanes') === D.timeline.lanes.length && withSlices > 0,
			at.getAttribute('data-tl-lanes') + ' lanes, ' + withSlices + ' with slices');
		check('ticks read differently', distinct(at.getAttribute('data-tl-ticks')), at.getAttribute('data-tl-ticks'));
		at.setAttribute('data-tl-digest', tl.digest());
		mid = r.top + 30;
		fire(tl.canvas, 'wheel', r.left + 84 + (tl.W - 84) / 2, mid, { deltaY: -400 });
		check('wheel zooms the timeline', tl.b - tl.a < span / 2, (tl.b - tl.a) + ' < ' + span);
		var zoomed = tl.a;
		fire(tl.canvas, 'mousedown', r.left + 284, mid);
		fire(window, 'mousemove', r.left + 384, mid);
		fire(window, 'mouseup', r.left + 384, mid);
		check('drag pans the timeline', tl.a < zoomed, tl.a + ' < ' + zoomed);
		var s0 = tl.hi;   /* from the first lane's first slice: a device's dump starts long before its main thread's */
		tl.lanes[0].rows.forEach(function (row) { if (row.n) s0 = Math.min(s0, row.s[0]); });
		tl.view(s0, s0 + (tl.hi - tl.lo) / 100);
		check('zoomed into the first 1 % of the slices: slices drawn one by one', +at.getAttribute('data-tl-boxes') > 0 &&
			+at.getAttribute('data-tl-slices') > 0, at.getAttribute('data-tl-boxes') + ' boxes, ' +
			at.getAttribute('data-tl-slices') + ' slices');
		check('and ticks read differently', distinct(at.getAttribute('data-tl-ticks')), at.getAttribute('data-tl-ticks'));
		tl.view(tl.lo + (tl.hi - tl.lo) / 3, tl.lo + (tl.hi - tl.lo) / 3 + 1);
		check('the zoom stops at 10 us', Math.round(tl.b - tl.a) === 10000, tl.b - tl.a);
		check('there the ticks are microseconds apart and differ', distinct(at.getAttribute('data-tl-ticks')) &&
			/\u00b5s/.test(at.getAttribute('data-tl-ticks')), at.getAttribute('data-tl-ticks'));
		var fold = tl.lanes.filter(function (l) { return !l.open && l.rows.length > l.shown; })[0];
		if (fold) {
			var before = +at.getAttribute('data-tl-folded-rows'), y;
			tl.wrap.scrollTop = fold.y;
			tl.render();
			y = r.top + 24 + fold.y - tl.wrap.scrollTop + 6;
			fire(tl.canvas, 'mousedown', r.left + 40, y);
			fire(window, 'mouseup', r.left + 40, y);
			check('a click on a folded thread\'s name unfolds its rows', fold.open &&
				+at.getAttribute('data-tl-folded-rows') < before, before + ' -> ' + at.getAttribute('data-tl-folded-rows'));
			tl.wrap.scrollTop = 0;
		}
		var jump = null;   /* the shortest finding with a time: the timeline must zoom to it */
		Array.prototype.forEach.call(document.querySelectorAll('a.jump'), function (a) {
			if (!jump || +a.getAttribute('data-dur') < +jump.getAttribute('data-dur')) jump = a;
		});
		if (jump) {
			jump.click();
			var v = at.getAttribute('data-tl-view').split(' ').map(Number), ts = +jump.getAttribute('data-ts');
			check('a finding\'s time moves the timeline there', at.getAttribute('data-tl-focus') ===
				(jump.getAttribute('data-tid') || tl.lanes[0].tid) + ' ' + ts && v[0] <= ts && ts <= v[1] &&
				v[1] - v[0] < span, at.getAttribute('data-tl-focus') + ' in ' + v.join('..'));
		}
		byId('tl-reset').click();
		check('reset shows the whole trace', tl.a === a0 && tl.b - tl.a === span);
	}

	/* The frames track (D.timeline.frames, twelve values a frame): at the
	 * whole trace every frame drawn and every janky one marked; the worst
	 * frame (the most vsyncs missed, else the longest), hovered, tells its
	 * id and cause and, clicked, fills the view with the main thread's
	 * slices in it; no track without frames. */
	function framesTests(check) {
		var tl = BT.tl, at = tl.wrap, F = D.timeline.frames, S = 12, n, janky = 0, pick = -1, k;
		if (!F) {
			check('no frames in the trace: no frames track', !tl.frames && tl.yFrames < 0 &&
				!at.hasAttribute('data-tl-frames') && !/janky frame/.test(byId('tl-legend').textContent));
			return;
		}
		n = F.rows.length / S;
		for (k = 0; k < n; k++) {
			var bad = F.rows[k * S + 5] === 1, p = pick * S;
			janky += bad;
			if (pick < 0 || (bad && F.rows[p + 5] !== 1) || (bad === (F.rows[p + 5] === 1) &&
				(F.rows[k * S + 6] > F.rows[p + 6] || (F.rows[k * S + 6] === F.rows[p + 6] && F.rows[k * S + 1] > F.rows[p + 1]))))
				pick = k;
		}
		byId('tl-reset').click();
		check('the frames track drew every frame', +at.getAttribute('data-tl-frames') === n,
			at.getAttribute('data-tl-frames') + ' of ' + n);
		check('and marked every janky one', +at.getAttribute('data-tl-janky') === janky,
			at.getAttribute('data-tl-janky') + ' of ' + janky);
		var o = pick * S, ts = F.rows[o], dur = F.rows[o + 1], id = F.rows[o + 7], r, x, y;
		tl.wrap.scrollTop = 0;
		tl.view(ts - 20 * dur - 1e6, ts + 21 * dur + 1e6);   /* the frame a box of its own */
		r = tl.canvas.getBoundingClientRect();
		x = r.left + 84 + (ts + dur / 2 - tl.a) * tl.scale;
		y = r.top + 24 + tl.yFrames + 18 + 7 - tl.wrap.scrollTop;
		fire(tl.canvas, 'mousemove', x, y);
		var tip = BT.tipText();
		check('hovering a frame tells its id, its jank and its cause', new RegExp('^Frame ' + id + '[ :]').test(tip) &&
			(F.rows[o + 5] === 1 ? /janky, \d+ vsyncs? missed/.test(tip) && /\ncause: ./.test(tip) : /on time/.test(tip)) &&
			/after its vsync; deadline at/.test(tip), tip.split('\n')[0]);
		fire(tl.canvas, 'mousedown', x, y);
		fire(window, 'mouseup', x, y);
		var v = at.getAttribute('data-tl-view').split(' ').map(Number), main = tl.byTid[F.tid], inside = 0;
		var ago = F.rows[o + 3], dl = F.rows[o + 4], near = 10 * Math.max(dur, F.period_ns, 1e6);
		check('a click on it zooms to its span', at.getAttribute('data-tl-frame') === String(id) && v[0] <= ts &&
			ts + dur <= v[1] + 1 && v[1] - v[0] <= 1.2 * (dur + Math.abs(ago) + Math.abs(dl)) + 2e5 + 2 &&
			tl.mark && tl.mark.ts === ts, 'frame ' + at.getAttribute('data-tl-frame') + ' in ' + v.join('..'));
		(main ? main.rows : []).forEach(function (row) {
			for (var i = 0; i < row.n; i++) inside += row.s[i] < ts + dur && row.e[i] > ts;
		});
		check('the main thread\'s slices in it show', inside > 0 && +at.getAttribute('data-tl-slices') > 0 &&
			main.y - tl.wrap.scrollTop < tl.H - 24, inside + ' main-thread slices in the frame');
		if (Math.abs(dl) <= near && Math.abs(ago) <= near)   /* not a hostile row's */
			check('its vsync and deadline in view, the deadline a tick', v[0] <= ts - ago && ts + dl <= v[1] &&
				+at.getAttribute('data-tl-deadlines') > 0, at.getAttribute('data-tl-deadlines') + ' ticks');
		byId('tl-reset').click();
		check('after reset, every frame again', +at.getAttribute('data-tl-frames') === n && !tl.mark);
	}

	/* #bench: how long a drawing takes (ms, the mean of 10): the timeline
	 * whole, at 1 %, at the floor, and the flame graph; into data-bench. */
	function bench() {
		var out = [], tl = BT.tl;
		function time(what, fn) {
			var t = performance.now(), k;
			for (k = 0; k < 10; k++) fn();
			out.push(what + ' ' + ((performance.now() - t) / 10).toFixed(1));
		}
		if (tl) {
			time('timeline', function () { tl.view(tl.lo, tl.hi); });
			time('timeline-1%', function () { tl.view(tl.lo, tl.lo + (tl.hi - tl.lo) / 100); });
			time('timeline-10us', function () { tl.view(tl.lo + (tl.hi - tl.lo) / 3, tl.lo + (tl.hi - tl.lo) / 3 + 1); });
			tl.view(tl.lo, tl.hi);
		}
		if (BT.fg.root) time('flame', function () { BT.fg.render(); });
		document.documentElement.setAttribute('data-bench', out.join('|'));
	}

	function selftest() {
		var out = [], ok = true;
		function check(name, cond, detail) {
			out.push((cond ? 'ok - ' : 'not ok - ') + name + (detail === undefined ? '' : ' # ' + detail));
			if (!cond) ok = false;
		}
		if (BT.fg.root) flameTests(check);
		if (BT.tl) {
			timelineTests(check);
			framesTests(check);
		}
		byId('bt-selftest').textContent = out.join('\n');
		byId('bt-selftest').hidden = false;
		document.documentElement.setAttribute('data-selftest', ok ? 'pass' : 'fail');
	}

	/* #only=timeline: that section alone, for screenshots of it. */
	var only = /^#only=([\w-]+)$/.exec(location.hash);
	if (only && byId(only[1])) {
		Array.prototype.forEach.call(document.querySelectorAll('body > header, body > nav, body > section'), function (el) {
			if (el.id !== only[1]) el.style.display = 'none';
		});
	}
	/* What needs no slices works while the browser still reads them. */
	BT.flameInit();
	Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), sortable);
	window.addEventListener('resize', function () {
		if (BT.fg.root) BT.fg.render();
		if (BT.tl) BT.tl.render();
	});
	document.documentElement.setAttribute('data-first-ms', String(Math.round(performance.now())));

	/* The page's last script, after the slices: the timeline, and the
	 * links to it. */
	BT.finish = function () {
		if (BT.timelineInit) BT.timelineInit();
		jumps();
		document.documentElement.setAttribute('data-render-ms', String(Math.round(performance.now())));
		document.documentElement.setAttribute('data-script-ms', String(Math.round(performance.now() - BT.started)));
		document.documentElement.setAttribute('data-phases', BT.phases.join('|'));
		if (location.hash === '#selftest') selftest();
		if (location.hash === '#bench') bench();
		document.documentElement.setAttribute('data-ready', '1');
	};
}());
