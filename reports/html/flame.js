/* flame.js: the HTML report's flame graphs (BT.fg), drawn on canvases
 * from D.flame: a thread selector, a weight switch (wall, CPU, off-CPU
 * time, allocated bytes), click to zoom, search, tooltips with the full
 * signature; and the sandwich view (BT.sw): a method's callers, upside
 * down with the method on top, and its callees, each of the method's
 * outermost calls counted once. A page with D.diff (compare -o
 * diff.html) draws a differential flame graph: nodes carry head and base
 * values and a state per measure, widths by the chosen measure, colours
 * by the change. Counts of what was drawn go into data-* attributes for
 * headless tests. */
(function () {
	'use strict';

	var BT = window.BT, D = BT.D, NAMES = BT.NAMES, byId = BT.byId, ms = BT.ms;
	var STRIDE = 8, RH = 18;   /* node: parent, name, then STRIDE - 2 inclusive values */
	var OFFCPU = 6;            /* the value the page adds: wall - CPU */
	BT.RH = RH;

	/* A flame graph on canvas (in wrap), of root, zoomed to zoom; weight
	 * wi indexes the nodes' values. */
	function View(canvas, wrap) {
		this.canvas = canvas;
		this.wrap = wrap;
		this.root = this.zoom = null;
		this.rects = [];
		this.term = '';
		this.wi = 0;
		this.paint = function (nd) { return nd.id >= 0 ? BT.flameColor(nd.id) : '#c9ced8'; };
	}
	BT.FlameView = View;

	View.prototype.matches = function (nd) {
		return this.term !== '' && nd !== this.root && nd.lname.indexOf(this.term) >= 0;
	};

	View.prototype.render = function () {
		var self = this, W = Math.max(300, this.wrap.clientWidth), z = this.zoom, chain = [], p, drawn = 0, lit = 0;
		var ctx = BT.sized(this.canvas, W, (this.root.maxDepth + 1) * RH + 2), wi = this.wi;
		this.rects = [];
		function box(nd, x, w, above) {
			var y = nd.depth * RH, label = BT.fit((self.mark ? self.mark(nd) : '') + nd.name, w);
			ctx.globalAlpha = above ? 0.55 : 1;
			ctx.fillStyle = self.matches(nd) ? '#d63aff' : nd === self.root ? '#c9ced8' : self.paint(nd);
			ctx.fillRect(x, y, Math.max(w - 1, 0.5), RH - 1);
			if (label) {
				ctx.fillStyle = '#1d2433';
				ctx.fillText(label, x + 3, y + RH / 2);
			}
			self.rects.push({ x: x, y: y, w: w, nd: nd });
			if (!above && self.drawn) self.drawn(nd);
			drawn++;
			if (self.matches(nd)) lit++;
		}
		for (p = z; p; p = p.parent) chain.unshift(p);
		chain.slice(0, -1).forEach(function (nd) { box(nd, 0, W, true); });
		var scale = W / Math.max(1, z.v[wi]);
		if (this.reset) this.reset();
		/* Callees never overflow their caller: medians of runs need not add up. */
		(function walk(nd, x, room) {
			var w = Math.min(nd.v[wi] * scale, room), end = x + w;
			if (w < 0.5 && nd !== z) return;
			box(nd, x, w, false);
			nd.kids.forEach(function (c) {
				if (c.v[wi] <= 0) return;
				walk(c, x, end - x);
				x = Math.min(end, x + c.v[wi] * scale);
			});
		}(z, 0, W));
		if (this.done) this.done();
		ctx.globalAlpha = 1;
		this.wrap.setAttribute('data-flame-frames', String(drawn));
		this.wrap.setAttribute('data-flame-highlighted', String(lit));
		this.wrap.setAttribute('data-flame-zoom', z.name);
		this.wrap.setAttribute('data-flame-weight', String(wi));
		this.wrap.setAttribute('data-flame-total', String(z.v[wi]));
	};

	View.prototype.hit = function (ev) {
		var r = this.canvas.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top, i;
		for (i = this.rects.length - 1; i >= 0; i--) {
			var b = this.rects[i];
			if (y >= b.y && y < b.y + RH && x >= b.x && x < b.x + Math.max(b.w, 1)) return b.nd;
		}
		return null;
	};

	/* Sort every node's callees by weight wi, largest first. */
	View.prototype.sort = function () {
		var wi = this.wi;
		(function walk(nd) {
			nd.kids.sort(function (x, y) {
				return y.v[wi] - x.v[wi] || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0);
			});
			nd.kids.forEach(walk);
		}(this.root));
	};

	function node(id, name, v, parent) {
		var full = id >= 0 ? BT.full(id) : name;
		return { id: id, name: name, full: full, v: v, kids: [], parent: parent,
			depth: parent ? parent.depth + 1 : 0, lname: (name + '\n' + full).toLowerCase() };
	}

	/* Self values: inclusive minus the drawn callees', so callees too
	 * small to embed count as their caller's. */
	function finish(root) {
		var all = [], k;
		root.maxDepth = 0;
		(function walk(nd) {
			all.push(nd);
			nd.self = nd.v.slice();
			nd.kids.forEach(function (c) {
				for (k = 0; k < nd.self.length; k++) nd.self[k] -= c.v[k];
				walk(c);
			});
			if (nd.depth > root.maxDepth) root.maxDepth = nd.depth;
		}(root));
		root.all = all;
		return root;
	}

	/* The thread's call tree; a report's nodes get their off-CPU time. */
	function buildTree(th) {
		var a = th.nodes, S = th.stride || STRIDE, NM = S - 2, n = a.length / S, nodes = [], i, k;
		var root = node(-1, th.name + ' (all frames)', [], null);
		for (k = 0; k < NM; k++) root.v.push(0);
		if (!D.diff) root.v.push(0);
		for (i = 0; i < n; i++) {
			var o = i * S, p = a[o], v = a.slice(o + 2, o + 2 + NM);
			if (!D.diff) v.push(v[0] - v[1]);
			var nd = node(a[o + 1], NAMES[a[o + 1]], v, p < 0 ? root : nodes[p]);
			nd.parent.kids.push(nd);
			if (p < 0) for (k = 0; k < v.length; k++) root.v[k] += v[k];
			nodes.push(nd);
		}
		return finish(root);
	}

	/* ---- the flame graph -------------------------------------------------- */

	var fg = BT.fg = new View(byId('fg-canvas'), byId('fg-wrap'));
	fg.roots = [];
	fg.thread = 0;

	/* Share of the thread's weight in frames matching the search: a
	 * match inside another match counts once. */
	function search(term) {
		var n = 0, sum = 0, el = byId('fg-match'), wi = fg.wi;
		fg.term = term.trim().toLowerCase();
		if (fg.term) {
			(function walk(nd, inside) {
				var m = fg.matches(nd);
				if (m) n++;
				if (m && !inside) sum += nd.v[wi];
				nd.kids.forEach(function (c) { walk(c, inside || m); });
			}(fg.root, false));
		}
		var share = fg.root.v[wi] > 0 ? 100 * sum / fg.root.v[wi] : 0;
		fg.wrap.setAttribute('data-flame-matches', String(n));
		fg.wrap.setAttribute('data-flame-match-pct', share.toFixed(4));
		el.textContent = fg.term ? n + ' frames match: ' + value(sum) + ', ' + share.toFixed(2) + ' % of the thread' : '';
		fg.render();
	}
	fg.search = search;

	/* A value of the current weight as people read it. */
	function value(v) { return fg.wi === 3 ? BT.bytes(v) : ms(v); }

	function thread(i) {
		var th = D.flame.threads[i];
		fg.thread = i;
		fg.root = fg.roots[i] || (fg.roots[i] = buildTree(th));
		fg.zoom = fg.root;
		fg.sort();
		byId('fg-note').textContent = D.diff ? diffNote(th) : BT.count(th.paths) + ' call paths of ' + th.name +
			' (tid ' + th.tid + '), ' + ms(fg.root.v[0]) + ' wall, ' + (th.nocpu ? 'CPU time not in the trace' :
			ms(fg.root.v[1]) + ' CPU') + ', ' +
			(D.flame.noalloc ? 'allocations not in the trace' : BT.bytes(fg.root.v[3]) + ' allocated') + '; ' +
			BT.count(th.merged) + ' paths under ' + D.flame.min_pct +
			' % of the thread\'s time and bytes were merged into their callers\' self values' +
			(D.flame.threads_left_out ? '; ' + D.flame.threads_left_out + ' smaller threads not shown' : '') + '.';
		fg.wrap.setAttribute('data-flame-thread', String(th.tid));
		search(byId('fg-search').value);
		if (BT.sw) BT.sw.thread();
	}

	function tipLines(nd, T) {
		var v = nd.v, s = nd.self, th = (D.flame && D.flame.threads[fg.thread]) || {};
		return [nd.name, nd.full !== nd.name ? nd.full : '',
			'wall      ' + ms(v[0]) + ' incl (' + BT.pct(v[0], T[0]) + ')   ' + ms(s[0]) + ' self',
			th.nocpu ? 'CPU, off-CPU: not in this trace' :
			'CPU       ' + ms(v[1]) + ' incl   ' + ms(s[1]) + ' self',
			th.nocpu ? '' : 'off-CPU   ' + ms(v[0] - v[1]) + ' incl   ' + ms(s[0] - s[1]) + ' self',
			'blocked   ' + ms(v[2]) + ' incl   ' + ms(s[2]) + ' self',
			D.flame.noalloc ? 'allocations: not in this trace' :
			'allocated ' + BT.bytes(v[3]) + ', ' + v[4] + ' objects incl   ' + BT.bytes(s[3]) + ', ' + s[4] + ' self',
			D.flame.nofaults ? 'page faults: not in this trace' : 'page faults ' + v[5] + ' incl   ' + s[5] + ' self',
			nd.id >= 0 ? BT.KINDS[BT.KIND[nd.id]] + ' code' : '',
			nd.parent ? '(self includes callees too small to draw; shift-click: callers and callees)' : ''];
	}
	BT.flameTip = tipLines;

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
		byId('fg-measure').addEventListener('change', function (e) { fg.wi = +e.target.value; fg.render(); });
	}

	/* ---- sandwich: callers and callees of one method ---------------------- */

	/* The nodes of method id that no other call of it encloses. */
	function outermost(root, id) {
		var out = [];
		(function walk(nd, inside) {
			var m = nd.id === id;
			if (m && !inside) out.push(nd);
			nd.kids.forEach(function (c) { walk(c, inside || m); });
		}(root, false));
		return out;
	}

	function child(nd, src) {
		var k;
		for (k = 0; k < nd.kids.length; k++) if (nd.kids[k].id === src.id) return nd.kids[k];
		var c = node(src.id, src.name, src.v.map(function () { return 0; }), nd);
		nd.kids.push(c);
		return c;
	}
	function add(to, v) { for (var k = 0; k < v.length; k++) to.v[k] += v[k]; }

	/* Callees: every outermost call's subtree, merged by name. Callers:
	 * the chain above each, upside down, weighed by that call. */
	function sandwich(root, id) {
		var calls = outermost(root, id), zero = root.v.map(function () { return 0; });
		var down = node(id, NAMES[id], zero.slice(), null), up = node(id, NAMES[id], zero.slice(), null);
		calls.forEach(function (nd) {
			add(down, nd.v);
			add(up, nd.v);
			(function merge(to, from) {
				from.kids.forEach(function (c) { var t = child(to, c); add(t, c.v); merge(t, c); });
			}(down, nd));
			for (var p = nd.parent, at = up; p && p.parent; p = p.parent) {
				at = child(at, p);
				add(at, nd.v);
			}
		});
		return { up: finish(up), down: finish(down), calls: calls.length };
	}
	BT.sandwich = sandwich;

	var sw = BT.sw = { up: new View(byId('sw-up'), byId('sw-up-wrap')), down: new View(byId('sw-down'), byId('sw-down-wrap')),
		id: -1, select: byId('sw-method') };

	/* The current thread's methods by self weight, largest first. */
	sw.thread = function () {
		var self = {}, ids = [], best = -1, sel = sw.select, wi = fg.wi;
		fg.root.all.forEach(function (nd) {
			if (nd.id < 0) return;
			if (!(nd.id in self)) { self[nd.id] = 0; ids.push(nd.id); }
			self[nd.id] += nd.self[wi];
		});
		ids.sort(function (a, b) { return self[b] - self[a] || a - b; });
		ids = ids.slice(0, 300);
		sel.textContent = '';
		ids.forEach(function (id) {
			var o = document.createElement('option');
			o.value = String(id);
			o.textContent = NAMES[id] + ' (' + BT.KINDS[BT.KIND[id]] + ', self ' + value(self[id]) + ')';
			o.title = BT.full(id);
			sel.appendChild(o);
			if (best < 0 && BT.KIND[id] === 0) best = id;
		});
		sw.show(sw.id >= 0 && self[sw.id] !== undefined ? sw.id : best >= 0 ? best : ids.length ? ids[0] : -1);
	};

	sw.show = function (id) {
		var note = byId('sw-note');
		sw.id = id;
		if (id < 0) {
			note.textContent = 'No method to show.';
			return;
		}
		if (!Array.prototype.some.call(sw.select.options, function (o) { return +o.value === id; })) {
			var o = document.createElement('option');
			o.value = String(id);
			o.textContent = NAMES[id];
			sw.select.appendChild(o);
		}
		sw.select.value = String(id);
		var s = sandwich(fg.root, id);
		[sw.up, sw.down].forEach(function (v, k) {
			v.root = v.zoom = k ? s.down : s.up;
			v.wi = fg.wi;
			v.sort();
			v.render();
		});
		sw.up.wrap.setAttribute('data-sw-callers', String(s.up.all.length - 1));
		sw.down.wrap.setAttribute('data-sw-callees', String(s.down.all.length - 1));
		sw.up.wrap.setAttribute('data-sw-method', NAMES[id]);
		note.textContent = BT.full(id) + ': ' + s.calls + ' outermost calls on ' + D.flame.threads[fg.thread].name +
			', ' + value(s.up.v[fg.wi]) + ' in all; ' + (s.up.all.length - 1) + ' caller and ' + (s.down.all.length - 1) +
			' callee frames. Click a frame to centre the view on its method.';
	};

	function hook(v, onClick) {
		v.canvas.addEventListener('click', function (ev) { var nd = v.hit(ev); if (nd) onClick(nd, ev); });
		v.canvas.addEventListener('mousemove', function (ev) {
			var nd = v.hit(ev);
			if (!nd) return BT.hideTip();
			BT.showTip(D.diff ? diffTip(nd) : tipLines(nd, v.root.v), ev);
		});
		v.canvas.addEventListener('mouseleave', BT.hideTip);
	}

	function init() {
		var sel = byId('fg-thread');
		if (D.diff) diffInit();
		if (!D.flame.threads.length) {
			byId('fg-note').textContent = 'No call tree in this trace.';
			fg.wrap.setAttribute('data-flame-frames', '0');
			return;
		}
		if (!D.diff) BT.legend(byId('fg-legend'), BT.LEGEND.flame, 'width: the chosen weight; colour: whose code it is');
		D.flame.threads.forEach(function (th, i) {
			var o = document.createElement('option');
			o.value = String(i);
			o.textContent = th.name + ' (tid ' + th.tid + ')' + (th.main ? ', main' : '');
			sel.appendChild(o);
		});
		sel.addEventListener('change', function () { thread(+sel.value); });
		byId('fg-search').addEventListener('input', function (e) { search(e.target.value); });
		byId('fg-reset').addEventListener('click', function () { fg.zoom = fg.root; fg.render(); });
		var bytes = byId('fg-weight') && byId('fg-weight').querySelector('option[value="3"]');
		if (bytes && D.flame.noalloc) bytes.parentNode.removeChild(bytes);   /* no weight the trace cannot give */
		if (byId('fg-weight')) byId('fg-weight').addEventListener('change', function (e) {
			fg.wi = +e.target.value;
			fg.sort();
			search(byId('fg-search').value);
			if (sw.id >= 0) sw.thread();
		});
		hook(fg, function (nd, ev) {
			if (ev.shiftKey && nd.id >= 0 && byId('sandwich')) {
				sw.show(nd.id);
				byId('sandwich').scrollIntoView();
			} else {
				fg.zoom = nd;
				fg.render();
			}
		});
		if (byId('fg-sandwich')) byId('fg-sandwich').addEventListener('click', function () {
			if (fg.zoom.id >= 0) sw.show(fg.zoom.id);
			byId('sandwich').scrollIntoView();
		});
		if (sw.select && !D.diff) {
			hook(sw.up, function (nd) { if (nd.id >= 0) sw.show(nd.id); });
			hook(sw.down, function (nd) { if (nd.id >= 0) sw.show(nd.id); });
			sw.select.addEventListener('change', function () { sw.show(+sw.select.value); });
		} else {
			BT.sw = null;
		}
		thread(0);
		BT.phase('flame');
	}
	BT.flameInit = init;
}());
