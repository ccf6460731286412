/*
 * Names in a Perfetto trace: slice names become frames (once per distinct
 * name), and the atrace markers btrace 2.0 and ART print are parsed from
 * them (perfetto-subset.md §4.2, mkperfetto.py): waits, notifies, parks,
 * unparks, monitor contention, binder transactions, thread creation.
 * Debug annotations give slices their counters back.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "importers/perfetto/pf_int.h"
#include "importers/symbol.h"

/* The decimal or 0x-hex number at s (no sign); 0 if none. */
static int number(const char *s, int64_t *out, const char **end)
{
	uint64_t v = 0;
	int base = 10, digits = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (;; s++, digits++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if (v > (UINT64_MAX >> 4) / 10)
			return 0;   /* too long to be an id */
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (!digits || v > INT64_MAX)
		return 0;
	*out = (int64_t)v;
	if (end)
		*end = s;
	return 1;
}

/* "Object#wait(obj:0x12ab, timeout:0)" and the like: the obj value. */
static int obj_of(const char *name, const char *prefix, int64_t *obj)
{
	size_t n = strlen(prefix);

	return !strncmp(name, prefix, n) && number(name + n, obj, NULL);
}

/* "binder transact[iface:code]" or "binder transact[iface:method|code]". */
static int binder(struct pf_frame *f)
{
	static const char pre[] = "binder transact[";
	const char *s = f->name, *colon, *close, *bar;
	int64_t code;

	if (strncmp(s, pre, sizeof pre - 1))
		return 0;
	s += sizeof pre - 1;
	close = strrchr(s, ']');
	colon = close ? memchr(s, ':', (size_t)(close - s)) : NULL;
	if (!colon || colon == s)
		return 0;
	/* the interface may hold no ':' but the method part may */
	f->iface_off = (uint32_t)(s - f->name);
	f->iface_len = (uint32_t)(colon - s);
	bar = memchr(colon + 1, '|', (size_t)(close - colon - 1));
	if (bar) {
		f->has_method = 1;
		f->method_off = (uint32_t)(colon + 1 - f->name);
		f->method_len = (uint32_t)(bar - colon - 1);
	}
	{
		const char *c = bar ? bar + 1 : colon + 1, *end = NULL;
		if (number(c, &code, &end) && end == close) {
			f->has_code = 1;
			f->value = code;
		}
	}
	return 1;
}

/* The method the owner took the lock in, after a monitor's "(N)": " at
 * METHOD(File.java:L) ...", METHOD as ART's PrettyMethod prints it (the
 * name btrace 2.0 gives the method's slices), its parameters the first
 * parentheses. Absent when ART did not know it. */
static void owner_method(struct pf_frame *f, const char *s)
{
	const char *m, *close;

	if (strncmp(s, " at ", 4))
		return;
	m = s + 4;
	close = strchr(m, ')');
	if (!close || close[1] != '(' || !memchr(m, '(', (size_t)(close - m)))
		return;
	f->has_method = 1;
	f->method_off = (uint32_t)(m - f->name);
	f->method_len = (uint32_t)(close + 1 - m);
}

/*
 * ART's "monitor contention with owner NAME (N) at ...": NAME and N, ART's
 * own thread id (not the kernel's tid on a device), and the owner's method.
 * NAME may hold " (", so N is the first " (digits)" followed by a space or
 * the end.
 */
static int monitor(struct pf_frame *f)
{
	static const char pre[] = "monitor contention with owner ";
	const char *s = f->name + sizeof pre - 1, *open;

	if (strncmp(f->name, pre, sizeof pre - 1))
		return 0;
	for (open = strchr(s, '('); open; open = strchr(open + 1, '(')) {
		const char *end;
		if (open > s && open[-1] == ' ' && number(open + 1, &f->value, &end) && *end == ')' &&
		    (!end[1] || end[1] == ' ')) {
			f->iface_off = (uint32_t)(s - f->name);
			f->iface_len = (uint32_t)(open - 1 - s);
			owner_method(f, end + 1);
			return 1;
		}
	}
	return 0;
}

/* ART's "Lock contention on a monitor lock (owner tid: T)": T, the
 * kernel's tid of the owner (0 when ART did not know it). */
static int lock(struct pf_frame *f)
{
	static const char pre[] = "Lock contention on a monitor lock (owner tid: ";
	const char *end;

	return !strncmp(f->name, pre, sizeof pre - 1) && number(f->name + sizeof pre - 1, &f->value, &end) &&
	       *end == ')';
}

/* ART's contention on a lock of its own: "Lock contention on NAME (owner
 * tid: T)" (thread list lock, mutator lock, ...), T as lock()'s; without
 * the owner part, an owner unknown. Not a monitor lock's (lock()). */
static int mutex(struct pf_frame *f)
{
	static const char pre[] = "Lock contention on ", own[] = " (owner tid: ", mon[] = "a monitor lock";
	const char *at, *end, *name = f->name + sizeof pre - 1;

	if (strncmp(f->name, pre, sizeof pre - 1) || !*name || !strncmp(name, mon, sizeof mon - 1))
		return 0;
	f->value = 0;
	at = strstr(name, own);
	if (at && !(number(at + sizeof own - 1, &f->value, &end) && *end == ')' && !end[1]))
		f->value = 0;
	return 1;
}

static void pf_parse_marker(struct pf_frame *f)
{
	const char *n = f->name;

	f->marker = PF_PLAIN;
	if (n[0] == 'O' && obj_of(n, "Object#wait(obj:", &f->value))
		f->marker = PF_WAIT;
	else if (n[0] == 'O' && (obj_of(n, "Object#notify(obj:", &f->value) ||
				 obj_of(n, "Object#notifyAll(obj:", &f->value)))
		f->marker = PF_NOTIFY;
	else if (n[0] == 'U' && obj_of(n, "Unsafe#park(obj:", &f->value))
		f->marker = PF_PARK;   /* "Unsafe#park(obj:0x%x, time:%d)", the parking thread's hash */
	else if (n[0] == 'U' && obj_of(n, "Unsafe#unpark(obj:", &f->value))
		f->marker = PF_UNPARK;   /* the hash of the thread it unparks */
	else if (n[0] == 'm' && monitor(f))
		f->marker = PF_MONITOR;
	else if (n[0] == 'L' && lock(f))
		f->marker = PF_LOCK;
	else if (n[0] == 'L' && mutex(f))
		f->marker = PF_MUTEX;
	else if (n[0] == 'b' && binder(f))
		f->marker = PF_BINDER;
	else if (n[0] == 'p' && obj_of(n, "pthread_create tid=", &f->value))
		f->marker = PF_PTHREAD;
}

uint32_t pf_frame(struct pf *p, const char *name, size_t len)
{
	uint32_t id = bt_strmap_get(&p->frame_of, name, len);
	struct pf_frame *f;

	if (id)
		return id;
	BT_GROW(p->frames, p->nframes + 1, p->fcap);
	f = &p->frames[p->nframes];
	memset(f, 0, sizeof *f);
	f->name = bt_xmalloc(len + 1);
	memcpy(f->name, name, len);
	f->name[len] = '\0';
	pf_parse_marker(f);
	id = (uint32_t)++p->nframes;
	bt_strmap_put(&p->frame_of, name, len, id);
	return id;
}

const char *pf_name(const struct pf *p, struct bt_map64 *m, int64_t key)
{
	uint32_t i = bt_map64_get(m, (uint64_t)key);

	return i ? p->names[i - 1] : NULL;
}

void pf_name_put(struct pf *p, struct bt_map64 *m, int64_t key, const char *s, size_t len)
{
	char *c;

	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;   /* comm's trailing newline */
	if (!len)
		return;
	c = bt_xmalloc(len + 1);
	memcpy(c, s, len);
	c[len] = '\0';
	BT_GROW(p->names, p->nnames + 1, p->ncap);
	p->names[p->nnames++] = c;
	bt_map64_put(m, (uint64_t)key, (uint32_t)p->nnames);
}

/* A number an annotation holds, whichever value field it used. */
static int value_of(const Perfetto__Protos__DebugAnnotation *d, double *out)
{
	if (d->has_int_value)
		*out = (double)d->int_value;
	else if (d->has_double_value)
		*out = d->double_value;
	else if (d->has_uint_value)
		*out = (double)d->uint_value;
	else
		return 0;
	return isfinite(*out) && fabs(*out) < 9e15;
}

static int64_t int_of(const Perfetto__Protos__DebugAnnotation *d)
{
	return d->has_int_value ? d->int_value : d->has_uint_value ? (int64_t)d->uint_value
		: (int64_t)llround(d->double_value);
}

/* Annotation keys: upstream's converter, ours (the same), the iOS tool's.
 * Found by length first: every event has several, each tried against all. */
#define KEY(s) s, sizeof s - 1
static const struct {
	const char *key;
	size_t len;
	enum pf_arg arg;
	double scale;   /* to ns or bytes; 0: an integer as is */
} keys[] = {
	{ KEY("CPUTime"), PF_CPU, 1e6 }, { KEY("SelfCpuTime"), PF_SELF_CPU, 1e6 },
	{ KEY("BlockTime"), PF_BLOCK, 1e6 }, { KEY("MessageId"), PF_MSG, 0 }, { KEY("Count"), PF_COUNT, 0 },
	{ KEY("AllocatedObjects"), PF_OBJS, 0 }, { KEY("AllocatedBytesNum"), PF_BYTES, 0 },
	{ KEY("MajFlt"), PF_MAJFLT, 0 }, { KEY("NvCsw"), PF_NVCSW, 0 }, { KEY("NivCsw"), PF_NIVCSW, 0 },
	{ KEY("WakeUpBy"), PF_WAKEUP, 0 }, { KEY("Gap"), PF_GAP, 1e6 }, { KEY("Gap.CPU"), PF_GAP_CPU, 1e6 },
	{ KEY("Idle"), PF_IDLE, 0 }, { KEY("WaitTime"), PF_WAIT_TIME, 1e6 },
	{ KEY("cpu_time_int"), PF_CPU, 1e3 }, { KEY("alloc_size"), PF_BYTES, 1048576.0 },
	{ KEY("alloc_count"), PF_OBJS, 0 },
};

int pf_type(const struct pf *p, struct pf_args *a, const char *str)
{
	int64_t t = -1;
	const char *end;

	if (number(str, &t, &end) && *end)
		t = -1;   /* upstream writes "20" for kLoadLibrary */
	if (t < 0)
		t = (int64_t)bt_strmap_get(&p->type_of, str, strlen(str)) - 1;
	if (t < 0)
		return 0;
	a->has |= 1u << PF_TYPE;
	a->v[PF_TYPE] = t;
	return 1;
}

int pf_annotation(const struct pf *p, struct pf_args *a, const char *name, const Perfetto__Protos__DebugAnnotation *d,
		  const char *str)
{
	size_t i, len;
	double v;

	if (!name)
		return 0;
	len = strlen(name);
	if (len == 4 && !memcmp(name, "Type", 4))
		return str ? pf_type(p, a, str) : 0;
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (len != keys[i].len || name[0] != keys[i].key[0] || memcmp(name, keys[i].key, len))
			continue;
		if (!value_of(d, &v))
			return 0;
		if (keys[i].scale && !(fabs(v * keys[i].scale) <= (double)PF_MAX_VALUE)) {
			bt_diag_warn(p->diag, "perfetto_annotation_range", "annotation '%s' of '%s' is %g, beyond 2^60 in ns or bytes; ignored",
				     name, p->path, v);
			return 0;
		}
		a->has |= 1u << keys[i].arg;
		a->v[keys[i].arg] = keys[i].scale ? (int64_t)llround(v * keys[i].scale) : int_of(d);
		return 1;
	}
	return 0;
}
