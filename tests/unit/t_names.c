/*
 * Unit tests of short method names: each level of a Java and a C++
 * signature, names that are no signature, and a namer that lengthens only
 * the names that collide (overloads by their parameters, same class names
 * in two packages by the package) and never merges two methods.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/names.h"
#include "tests/tap.h"

static const char *at(const char *name, int level)
{
	static struct bt_buf b = BT_BUF_INIT;

	bt_buf_reset(&b);
	bt_name_short(name, strlen(name), level, &b);
	return b.buf;
}

#define FEED "com.example.app.ui.feed.FeedViewHolder com.example.app.ui.feed.FeedAdapter." \
	"onCreateViewHolder(android.view.ViewGroup, int)"

int main(void)
{
	static const char *const same[] = {
		"<unknown 0x1f>", "-[NSObject init]", "libc.so!read", "", "tid 4243", "main",
		"(broken", "+[Foo bar:(int)x]", "inflate (activity_main)",
		"Lock contention on a monitor lock (owner tid: 123)",
		"monitor contention with owner T (12) at void a.B.c(int)(B.java:8) blocking from void a.B.d()",
	};
	struct bt_namer *n;
	const char *a, *b2, *c, *d, *e, *f;
	size_t i;

	is_str(at(FEED, 0), "FeedAdapter.onCreateViewHolder", "java level 0: class.method");
	is_str(at(FEED, 1), "FeedAdapter.onCreateViewHolder(ViewGroup, int)", "java level 1: simple parameters");
	is_str(at(FEED, 2), "com.example.app.ui.feed.FeedAdapter.onCreateViewHolder(ViewGroup, int)",
	       "java level 2: the package");
	is_str(at(FEED, 3), FEED, "level 3: the full signature");
	is_str(at("void com.example.db.DbWriter$BatchTask.run()", 0), "DbWriter$BatchTask.run",
	       "inner class stays with its outer");
	is_str(at("void com.example.db.DbWriter$BatchTask.run()", 1), "DbWriter$BatchTask.run()",
	       "no parameters: ()");
	is_str(at("void Foo.<init>(java.lang.String[], long)", 1), "Foo.<init>(String[], long)",
	       "arrays and constructors");
	is_str(at("void art::Monitor::Lock(art::Thread*)", 0), "Monitor::Lock", "c++ level 0");
	is_str(at("void art::Monitor::Lock(art::Thread*)", 1), "Monitor::Lock(Thread*)", "c++ level 1");
	is_str(at("void std::vector<int, std::allocator<int> >::push_back(int const&)", 0),
	       "vector<int, std::allocator<int> >::push_back", "c++ templates keep their spaces");
	is_str(at("int main(int, char**)", 0), "main", "a function without class");
	is_str(at("int qsort(void*, int (*)(void const*, void const*))", 1),
	       "qsort(void*, int (*)(void const*, void const*))", "function-pointer parameter kept whole");
	for (i = 0; i < sizeof same / sizeof *same; i++)
		is_str(at(same[i], 0), same[i], same[i]);

	n = bt_namer_new();
	bt_namer_add(n, FEED);
	bt_namer_add(n, "void com.example.a.FeedAdapter.bind(android.view.View, int)");
	bt_namer_add(n, "void com.example.a.FeedAdapter.bind(android.view.View)");
	bt_namer_add(n, "void com.example.a.Util.run()");
	bt_namer_add(n, "void com.example.b.Util.run()");
	bt_namer_add(n, "void com.example.a.Util.run()");   /* again: one name */
	bt_namer_add(n, "Util.run");                        /* no signature, same text as a short */
	is_str(bt_namer_get(n, FEED), FEED, "namer: before done, names read in full");
	bt_namer_done(n);
	a = bt_namer_get(n, FEED);
	b2 = bt_namer_get(n, "void com.example.a.FeedAdapter.bind(android.view.View, int)");
	c = bt_namer_get(n, "void com.example.a.FeedAdapter.bind(android.view.View)");
	d = bt_namer_get(n, "void com.example.a.Util.run()");
	e = bt_namer_get(n, "void com.example.b.Util.run()");
	f = bt_namer_get(n, "Util.run");
	is_str(a, "FeedAdapter.onCreateViewHolder", "namer: a unique name stays at level 0");
	is_str(b2, "FeedAdapter.bind(View, int)", "namer: overloads get their parameters");
	is_str(c, "FeedAdapter.bind(View)", "namer: the other overload");
	is_str(d, "com.example.a.Util.run()", "namer: same class and method in two packages");
	is_str(e, "com.example.b.Util.run()", "namer: the other package");
	is_str(f, "Util.run", "namer: a name that is no signature reads as it is");
	bt_namer_add(n, "void x.y.Late.added(int)");
	is_str(bt_namer_get(n, "void x.y.Late.added(int)"), "void x.y.Late.added(int)",
	       "namer: a name not in scope when done reads in full");
	ok(bt_namer_get(n, FEED) == a, "namer: the same string every time");
	is_str(bt_namer_get(NULL, FEED), FEED, "no namer (--full-names): the full name");
	bt_namer_free(n);

	/* many names, many collisions: never two methods under one name */
	n = bt_namer_new();
	{
		char name[128];
		const char *got[400];
		size_t j, k, dup = 0;

		for (j = 0; j < 400; j++) {
			snprintf(name, sizeof name, "void p%zu.q.C%zu.m%zu(p%zu.T, int)", j % 3, j % 7, j % 11,
				 j % 2);
			bt_namer_add(n, name);
		}
		bt_namer_done(n);
		for (j = 0; j < 400; j++) {
			snprintf(name, sizeof name, "void p%zu.q.C%zu.m%zu(p%zu.T, int)", j % 3, j % 7, j % 11,
				 j % 2);
			got[j] = bt_namer_get(n, name);
		}
		for (j = 0; j < 400; j++)
			for (k = j + 1; k < 400; k++)
				if (!strcmp(got[j], got[k]) && (j % 3 != k % 3 || j % 7 != k % 7 ||
				    j % 11 != k % 11 || j % 2 != k % 2))
					dup++;
		is_int(dup, 0, "namer: 400 names with collisions, no two methods share a short name");
	}
	bt_namer_free(n);
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
