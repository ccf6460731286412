/*
 * Every kind of Perfetto event besides thread slices, once read
 * (pf_kinds.c): the names of the tracks made for them, async slices paired
 * by cookie and instants in pf_pair.c's order, and what the import could
 * not take, per kind, into diagnostics; a trace whose threads have no
 * slices says where its data went (meta no_threads).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/db/rows.h"
#include "importers/perfetto/pf_kinds_int.h"

/* Names of packet fields (TracePacket's data) and ftrace events, by field
 * number as Perfetto's protos number them; 0 for trace metadata (nothing to
 * import, not counted). Numbers not here are counted by number. */
static const struct { uint16_t field; const char *name; } packet_names[] = {
	{ 3, NULL }, { 4, "inode_file_map" }, { 5, "chrome_events" }, { 7, "sys_stats" }, { 8, NULL },
	{ 9, "process_stats" }, { 10, NULL }, { 12, NULL }, { 13, NULL }, { 33, NULL }, { 34, NULL },
	{ 35, NULL }, { 36, NULL }, { 37, "profile_packet" }, { 38, "battery" }, { 39, "android_log" },
	{ 40, "power_rails" }, { 41, NULL }, { 42, NULL }, { 45, NULL }, { 46, "trigger" }, { 47, NULL },
	{ 48, NULL }, { 49, "perfetto_metatrace" }, { 51, NULL }, { 52, "gpu_counter_event" },
	{ 53, "gpu_render_stage_event" }, { 54, "streaming_profile_packet" }, { 56, "heap_graph" },
	{ 57, "graphics_frame_event" }, { 58, NULL }, { 59, NULL }, { 61, "module_symbols" },
	{ 62, "vulkan_memory_event" }, { 63, "gpu_log" }, { 64, "deobfuscation_mapping" },
	{ 65, "vulkan_api_event" }, { 66, "perf_sample" }, { 67, NULL }, { 68, "smaps_packet" }, { 69, NULL },
	{ 70, "initial_display_state" }, { 71, "gpu_mem_total_event" }, { 72, NULL },
	{ 73, "memory_tracker_snapshot" }, { 74, "streaming_allocation" }, { 75, "streaming_free" },
	{ 76, "frame_timeline_event" }, { 77, "android_energy_estimation_breakdown" }, { 78, NULL },
	{ 79, NULL }, { 82, NULL }, { 83, "android_game_intervention_list" }, { 84, "statsd_atom" },
	{ 86, "android_system_property" }, { 87, NULL }, { 88, "network_packet" },
	{ 89, NULL }, { 90, "track_event_range_of_interest" }, { 91, "entity_state_residency" },
	{ 92, "network_packet_bundle" }, { 93, "surfaceflinger_layers_snapshot" },
	{ 94, "surfaceflinger_transactions" }, { 95, "etw_events" }, { 96, "shell_transition" }, { 98, NULL },
	{ 99, "v8_js_code" }, { 104, "protolog_message" }, { 110, "pixel_modem_events" },
	{ 115, "kernel_wakelock_data" }, { 116, "app_wakelock_bundle" }, { 117, "generic_kernel_task_state_event" },
	{ 118, "generic_kernel_cpu_freq_event" }, { 119, "cpu_per_uid_data" }, { 121, "evdev_event" },
	{ 123, NULL }, { 124, NULL }, { 126, NULL }, { 127, NULL }, { 128, NULL }, { 130, NULL },
	{ 131, "art_process_metadata" }, { 132, "journald_event" }, { 133, "zstd_compressed_packets" },
	{ 135, "stack_sample" },
};

static const struct { uint16_t field; const char *name; } ftrace_names[] = {
	{ 4, "sched_switch" }, { 11, "cpu_frequency" }, { 12, "cpu_frequency_limits" }, { 13, "cpu_idle" },
	{ 14, "clock_enable" }, { 15, "clock_disable" }, { 16, "clock_set_rate" }, { 17, "sched_wakeup" },
	{ 18, "sched_blocked_reason" }, { 19, "sched_cpu_hotplug" }, { 20, "sched_waking" },
	{ 21, "ipi_entry" }, { 22, "ipi_exit" }, { 23, "ipi_raise" }, { 24, "softirq_entry" },
	{ 25, "softirq_exit" }, { 26, "softirq_raise" }, { 35, "lowmemory_kill" }, { 36, "irq_handler_entry" },
	{ 37, "irq_handler_exit" }, { 45, "block_rq_issue" }, { 50, "binder_transaction" },
	{ 51, "binder_transaction_received" }, { 52, "binder_set_priority" }, { 53, "binder_lock" },
	{ 54, "binder_locked" }, { 55, "binder_unlock" }, { 56, "workqueue_activate_work" },
	{ 57, "workqueue_execute_end" }, { 58, "workqueue_execute_start" }, { 59, "workqueue_queue_work" },
	{ 67, "cgroup_attach_task" }, { 80, "tracing_mark_write" }, { 113, "suspend_resume" },
	{ 114, "sched_wakeup_new" }, { 125, "block_rq_complete" }, { 235, "task_newtask" },
	{ 236, "task_rename" }, { 237, "sched_process_exec" }, { 238, "sched_process_exit" },
	{ 239, "sched_process_fork" }, { 240, "sched_process_free" }, { 241, "sched_process_hang" },
	{ 242, "sched_process_wait" }, { 298, "kfree" }, { 299, "kmalloc" }, { 307, "mm_page_alloc" },
	{ 310, "mm_page_free" }, { 313, "rss_stat" }, { 320, "clk_enable" }, { 321, "clk_disable" },
	{ 322, "clk_set_rate" }, { 323, "binder_transaction_alloc_buf" }, { 324, "signal_deliver" },
	{ 325, "signal_generate" }, { 326, "oom_score_adj_update" }, { 327, "generic" },
	{ 328, "mm_event_record" }, { 329, "sys_enter" }, { 330, "sys_exit" }, { 331, "zero" },
	{ 332, "gpu_frequency" }, { 333, "sde_tracing_mark_write" }, { 340, "gpu_mem_total" },
	{ 341, "thermal_temperature" }, { 348, "dpu_tracing_mark_write" }, { 350, "mali_tracing_mark_write" },
	{ 353, "sched_pi_setprio" }, { 359, "rss_stat_throttled" }, { 409, "drm_vblank_event" },
	{ 414, "dma_fence_init" }, { 415, "dma_fence_emit" }, { 416, "dma_fence_signaled" },
	{ 417, "dma_fence_wait_start" }, { 418, "dma_fence_wait_end" },
};
/* ---------------------------------------------------------------- names */

/* NAME becomes "NAME (what N)". */
static void rename_track(struct pf_track *t, const char *what, long long n)
{
	struct bt_buf b = BT_BUF_INIT;

	bt_buf_addf(&b, "%s (%s %lld)", t->name, what, n);
	free(t->name);
	t->name = bt_buf_detach(&b, NULL);
}

/* A counter the trace leaves unnamed is named by its type; a thread's
 * counter says the thread; a process's atrace counter, async track or
 * instants track says the process, as the systrace importer names them. */
void pf_kinds_name(struct pf *p)
{
	size_t i;

	for (i = 0; i < p->ntracks; i++) {
		struct pf_track *t = &p->tracks[i];
		const struct pf_track *up = t->has_parent ? pf_track_get(p, t->parent) : NULL;
		if (t->counter && !t->name)
			t->name = bt_xstrdup(t->ctype == 1 ? "thread_time" : t->ctype == 2 ? "thread_instruction_count"
					     : "counter");
		if (t->counter && up && up->tid > 0)
			rename_track(t, "tid", (long long)up->tid);
		else if (t->synth && t->pid > 0)
			rename_track(t, "pid", (long long)t->pid);
	}
}

/* ---------------------------------------------------------------- pairing */

static const char *frame_name(const struct pf *p, uint32_t frame)
{
	return frame && frame <= p->nframes ? p->frames[frame - 1].name : "?";
}

static const char *track_name(const struct pf *p, int64_t key)
{
	const struct pf_track *t = &p->tracks[-key - 1];

	return t->name ? t->name : "?";
}

/* Async slices still open on the track when its events end: kept to the
 * trace's end, counted. */
static int close_open(struct pf *p, struct bt_err *err)
{
	struct pf_kinds *k = p->kinds;

	for (; k->nopen; k->nopen--) {
		const struct open_async *o = &k->open[k->nopen - 1];
		k->unfinished++;
		k->async_slices++;
		if (bt_db_exec(p->db, BT_SQL_INSERT_TRACK_SLICE, err, "ttiii", track_name(p, k->key),
			       frame_name(p, o->frame), o->ts, p->end_ts - o->ts, (int64_t)o->depth))
			return err->code;
	}
	return BT_OK;
}

static int64_t cookie_of(const void *a, size_t na, int *ok)
{
	const unsigned char *b = a;
	uint32_t has = 0;
	int64_t v = 0;
	size_t at;
	int i;

	*ok = 0;
	if (!b || na < 4)
		return 0;
	memcpy(&has, b, 4);
	if (!(has >> PF_COOKIE & 1))
		return 0;
	for (at = 4, i = 0; i < PF_COOKIE; i++)
		at += (has >> i & 1) * 8;
	if (at + 8 > na)
		return 0;
	memcpy(&v, b + at, 8);
	*ok = 1;
	return v;
}

/* The innermost open slice of the cookie ends at ts. */
static int async_end(struct pf *p, int64_t ts, int64_t cookie, struct bt_err *err)
{
	struct pf_kinds *k = p->kinds;
	size_t i = k->nopen;
	struct open_async o;

	while (i > 0 && k->open[i - 1].cookie != cookie)
		i--;
	if (!i) {
		k->unmatched++;
		return BT_OK;
	}
	o = k->open[i - 1];
	memmove(&k->open[i - 1], &k->open[i], (k->nopen - i) * sizeof *k->open);
	k->nopen--;
	k->async_slices++;
	return bt_db_exec(p->db, BT_SQL_INSERT_TRACK_SLICE, err, "ttiii", track_name(p, k->key), frame_name(p, o.frame),
			  o.ts, ts - o.ts, (int64_t)o.depth);
}

int pf_kinds_pair(struct pf *p, int64_t key, int skip, int64_t ts, int kind, uint32_t frame, const void *a,
		  size_t na, struct bt_err *err)
{
	struct pf_kinds *k = p->kinds;
	int64_t cookie;
	int ok;

	if (k->have_key && key != k->key && close_open(p, err))
		return err->code;
	k->have_key = 1;
	k->key = key;
	if (kind == PF_EV_INSTANT && key >= 0 && skip) {
		k->other_instants++;
		return BT_OK;
	}
	if (kind == PF_EV_INSTANT) {
		k->instants++;
		if (key >= 0)
			return bt_db_exec(p->db, BT_SQL_INSERT_INSTANT, err, "inti", key, frame_name(p, frame), ts);
		return bt_db_exec(p->db, BT_SQL_INSERT_INSTANT, err, "ntti", track_name(p, key), frame_name(p, frame), ts);
	}
	cookie = cookie_of(a, na, &ok);
	if (key >= 0 || !ok)
		return BT_OK;   /* async events are on tracks of their own (put()) */
	if (kind == PF_EV_ASYNC_END)
		return async_end(p, ts, cookie, err);
	if (k->nopen >= MAX_OPEN) {
		k->deep++;
		return BT_OK;
	}
	BT_GROW(k->open, k->nopen + 1, k->ocap);
	k->open[k->nopen].frame = frame;
	k->open[k->nopen].ts = ts;
	k->open[k->nopen].cookie = cookie;
	k->open[k->nopen].depth = (int)k->nopen;
	k->nopen++;
	return BT_OK;
}

int pf_kinds_pair_end(struct pf *p, struct bt_err *err)
{
	return close_open(p, err);
}

/* ---------------------------------------------------------------- saving */

struct kind {
	char code[64], label[96];
	uint64_t n;
};

static const char *packet_name(unsigned f, int *meta)
{
	size_t i;

	*meta = 0;
	for (i = 0; i < sizeof packet_names / sizeof packet_names[0]; i++)
		if (packet_names[i].field == f) {
			*meta = !packet_names[i].name;
			return packet_names[i].name;
		}
	return NULL;
}

static const char *ftrace_name(unsigned f)
{
	size_t i;

	for (i = 0; i < sizeof ftrace_names / sizeof ftrace_names[0]; i++)
		if (ftrace_names[i].field == f)
			return ftrace_names[i].name;
	return NULL;
}

static void add(struct kind **v, size_t *n, size_t *cap, uint64_t count, const char *code, const char *label)
{
	struct kind *x;

	if (!count)
		return;
	BT_GROW(*v, *n + 1, *cap);
	x = &(*v)[(*n)++];
	x->n = count;
	snprintf(x->code, sizeof x->code, "perfetto_not_imported:%s", code);
	snprintf(x->label, sizeof x->label, "%s", label);
}

/* What the trace holds that is not imported, by kind. */
static struct kind *not_imported(const struct pf_kinds *k, size_t *n)
{
	struct kind *v = NULL;
	size_t cap = 0;
	char code[48], label[96];
	unsigned f;
	int meta;

	*n = 0;
	for (f = 0; f <= NPKT; f++) {
		const char *nm = f < NPKT ? packet_name(f, &meta) : NULL;
		if (!k->pkt[f] || (f < NPKT && meta))
			continue;
		if (nm) {
			snprintf(code, sizeof code, "%s", nm);
			snprintf(label, sizeof label, "%s packets", nm);
		} else {
			snprintf(code, sizeof code, "packet_field_%u", f);
			snprintf(label, sizeof label, "packets of field %u%s", f, f < NPKT ? "" : " or over");
		}
		add(&v, n, &cap, k->pkt[f], code, label);
	}
	for (f = 0; f <= NFTRACE; f++) {
		const char *nm = f < NFTRACE ? ftrace_name(f) : NULL;
		if (!k->ftr[f])
			continue;
		if (nm) {
			snprintf(code, sizeof code, "ftrace.%s", nm);
			snprintf(label, sizeof label, "%s events (ftrace)", nm);
		} else {
			snprintf(code, sizeof code, "ftrace.field_%u", f);
			snprintf(label, sizeof label, "ftrace events of field %u%s", f, f < NFTRACE ? "" : " or over");
		}
		add(&v, n, &cap, k->ftr[f], code, label);
	}
	add(&v, n, &cap, k->prints, "ftrace.print", "ftrace prints that are no atrace marker");
	for (f = 0; f <= 128; f++) {
		if (f > ' ' && f < 127) {
			snprintf(code, sizeof code, "legacy_phase_%c", (char)f);
			snprintf(label, sizeof label, "track events of legacy phase '%c'", (char)f);
		} else {
			snprintf(code, sizeof code, "legacy_phase_%u", f);
			snprintf(label, sizeof label, "track events of legacy phase %u", f);
		}
		add(&v, n, &cap, k->phase[f], code, label);
	}
	add(&v, n, &cap, k->synth_over, "names_over_cap", "counter, async and instant events past the number of names kept");
	add(&v, n, &cap, k->deep, "async_too_deep", "async slices past the number open on one track");
	return v;
}

static int by_count(const void *a, const void *b)
{
	const struct kind *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->code, y->code);
}

/* 1234567 as "1,234,567". */
static void grouped(struct bt_buf *b, uint64_t n)
{
	char d[24];
	int len = snprintf(d, sizeof d, "%llu", (unsigned long long)n), i;

	for (i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			bt_buf_addc(b, ',');
		bt_buf_addc(b, d[i]);
	}
}

static void counts(struct pf *p)
{
	const struct pf_kinds *k = p->kinds;

	if (k->other_instants)
		bt_diag_count(p->diag, "perfetto_other_process_instants", k->other_instants,
			      "instants on threads of processes other than pid %lld in '%s'; not imported", (long long)p->pid,
			      p->path);
	if (k->unfinished)
		bt_diag_count(p->diag, "perfetto_unfinished_async", k->unfinished,
			      "async slices of '%s' never ended; they end at the trace's last event", p->path);
	if (k->unmatched)
		bt_diag_count(p->diag, "perfetto_unmatched_async_end", k->unmatched,
			      "async slice ends in '%s' with no open slice of their name and cookie; skipped", p->path);
	if (k->bad_value)
		bt_diag_count(p->diag, "perfetto_bad_counter", k->bad_value,
			      "atrace markers or counter values of '%s' that do not parse (a value not a number below 2^53, a missing field); skipped",
			      p->path);
}

/* The tables a thread-less trace's data went to. */
static int elsewhere(struct pf *p, struct bt_buf *b, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	if (bt_rows_open(&r, p->db, BT_SQL_PF_KINDS_COUNTS, err))
		return err->code;
	if ((rc = bt_rows_next(r, err)) == 1) {
		int64_t ts = bt_rows_int(r, 0), tracks = bt_rows_int(r, 1), cv = bt_rows_int(r, 2);
		int64_t cs = bt_rows_int(r, 3), in = bt_rows_int(r, 4);
		if (ts) {
			bt_buf_adds(b, "; ");
			grouped(b, (uint64_t)ts);
			bt_buf_adds(b, " slices on ");
			grouped(b, (uint64_t)tracks);
			bt_buf_adds(b, " tracks that belong to no thread are in the track_slices table");
		}
		if (cv) {
			bt_buf_adds(b, "; ");
			grouped(b, (uint64_t)cv);
			bt_buf_adds(b, " values of ");
			grouped(b, (uint64_t)cs);
			bt_buf_adds(b, " counters are in counters");
		}
		if (in) {
			bt_buf_adds(b, "; ");
			grouped(b, (uint64_t)in);
			bt_buf_adds(b, " instants are in instants");
		}
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

static int no_threads(struct pf *p, const struct kind *v, size_t n, struct bt_err *err)
{
	struct bt_buf b = BT_BUF_INIT;
	size_t i;
	int rc;

	bt_buf_adds(&b, "no slice of this trace is on a thread, so the thread tables (threads, slices, methods) "
			"and the report's thread sections are empty");
	rc = elsewhere(p, &b, err);
	for (i = 0; i < n && i < SUMMARY_KINDS; i++) {
		bt_buf_adds(&b, i ? ", " : "; not imported: ");
		grouped(&b, v[i].n);
		bt_buf_addf(&b, " %s", v[i].label);
	}
	if (n > SUMMARY_KINDS)
		bt_buf_addf(&b, " and %zu more kinds (see the diagnostics)", n - SUMMARY_KINDS);
	if (!rc)
		rc = bt_db_set_meta_text(p->db, "no_threads", b.buf, err);
	bt_buf_release(&b);
	return rc;
}

uint64_t pf_kinds_not_imported(const struct pf *p, const char *kind)
{
	size_t n, i;
	struct kind *v = not_imported(p->kinds, &n);
	uint64_t c = 0;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].code + sizeof "perfetto_not_imported:" - 1, kind))
			c = v[i].n;
	free(v);
	return c;
}

int pf_kinds_save(struct pf *p, size_t threads, struct bt_err *err)
{
	size_t n, i;
	struct kind *v = not_imported(p->kinds, &n);
	int rc = BT_OK;

	if (n)   /* qsort of NULL is undefined, even of nothing */
		qsort(v, n, sizeof *v, by_count);
	for (i = 0; i < n && !rc; i++)
		rc = bt_db_exec(p->db, BT_SQL_INSERT_DIAGNOSTIC, err, "tit", v[i].code, (int64_t)v[i].n, v[i].label);
	counts(p);
	if (!rc && !threads)
		rc = no_threads(p, v, n, err);
	free(v);
	return rc;
}
