/*
 * Unit tests of the Perfetto importer's threads (importers/perfetto/pf_threads.c):
 * which of a thread's names stands, and ART's names of monitor owners
 * resolved to threads.
 */
#include <stdio.h>
#include <string.h>

#include "importers/perfetto/pf_int.h"
#include "tests/tap.h"

static void pf_init(struct pf *p)
{
	memset(p, 0, sizeof *p);
	bt_map64_init(&p->tgid_of, 16);
	bt_map64_init(&p->thread_name, 16);
	bt_map64_init(&p->process_name, 16);
	bt_strmap_init(&p->frame_of);
	pf_threads_init(p);
}

static const char *tname(struct pf *p, int64_t tid)
{
	const char *n = pf_name(p, &p->thread_name, tid);

	return n ? n : "(none)";
}

static void thread_names(void)
{
	struct pf p;

	pf_init(&p);
	pf_thread_name(&p, 10, "kern", 4, PF_NAME_KERNEL, 100);
	is_str(tname(&p, 10), "kern", "names: the kernel's comm");
	pf_thread_name(&p, 10, "older", 5, PF_NAME_KERNEL, 50);
	is_str(tname(&p, 10), "kern", "names: an older comm, later in the file (another CPU's bundle), does not replace it");
	pf_thread_name(&p, 10, "newer\n", 6, PF_NAME_KERNEL, 150);
	is_str(tname(&p, 10), "newer", "names: a newer comm does, without its newline");
	pf_thread_name(&p, 10, "untimed", 7, PF_NAME_KERNEL, -1);
	is_str(tname(&p, 10), "untimed", "names: a comm of no time: the file's order");
	pf_thread_name(&p, 10, "tree", 4, PF_NAME_TREE, -1);
	pf_thread_name(&p, 10, "kern2", 5, PF_NAME_KERNEL, 999);
	is_str(tname(&p, 10), "tree", "names: the process tree's beats a later comm");
	pf_thread_name(&p, 10, "own", 3, PF_NAME_OWN, -1);
	pf_thread_name(&p, 10, "tree2", 5, PF_NAME_TREE, -1);
	is_str(tname(&p, 10), "own", "names: the thread's own track's beats the tree's");
	pf_thread_name(&p, 11, "a\0b", 3, PF_NAME_OWN, -1);
	pf_thread_name(&p, 11, "", 0, PF_NAME_OWN, -1);
	is_str(tname(&p, 11), "(none)", "names: empty names and names holding NUL are none");
	is_int((int64_t)p.nnames, 1, "names: one string per thread, replaced in place");
	pf_release(&p);
}

static void art_owners(void)
{
	static const struct { int64_t tid, pid; const char *name; } th[] = {
		{ 20, 5, "DefaultDispatch" }, { 21, 5, "ple.sync.Worker" }, { 22, 5, "binder:5_2" },
		{ 23, 5, "binder:5_2" }, { 24, 5, "HeapTaskDaemon" }, { 30, 6, "HeapTaskDaemon" },
		{ 25, 5, "user@host.Name1" },
	};
	struct pf p;
	size_t i;

	pf_init(&p);
	for (i = 0; i < sizeof th / sizeof th[0]; i++) {
		pf_thread_group(&p, th[i].tid, th[i].pid);
		pf_thread_name(&p, th[i].tid, th[i].name, strlen(th[i].name), PF_NAME_KERNEL, -1);
	}
#define FIND(pid, s) pf_threads_find(&p, pid, s, strlen(s))
	is_int(FIND(5, "DefaultDispatcher-worker-1"), 20, "owners: a long name without a dot: its first 15 bytes");
	is_int(FIND(5, "com.example.sync.Worker"), 21, "owners: a long dotted name: its last 15 bytes");
	is_int(FIND(5, "user@host.Name1.x"), 25, "owners: a long name with '@': its first 15 bytes");
	is_int(FIND(5, "binder:5_2"), -1, "owners: two threads of the name: ambiguous");
	is_int(FIND(5, "Thread-7"), 0, "owners: no thread of the name");
	is_int(FIND(5, "HeapTaskDaemon"), 24, "owners: the waiter's process's thread of the name");
	is_int(FIND(6, "HeapTaskDaemon"), 30, "owners: another process's, in that process");
	is_int(FIND(7, "HeapTaskDaemon"), 0, "owners: none in a process without it");
#undef FIND
	pf_release(&p);
}

int main(void)
{
	thread_names();
	art_owners();
	return done_testing();
}
