/*
 * libxlsxwriter's loader (see lxw.h): dlopen by the soname the build
 * linked against (BT_LXW_SONAME, from the Makefile), then each function
 * the writers call.
 */
#define BT_LXW_LOADER
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "reports/xlsx/lxw.h"

#ifndef BT_LXW_SONAME
#define BT_LXW_SONAME "libxlsxwriter.so"
#endif

struct bt_lxw bt_lxw;

static const struct { const char *name; size_t at; } funcs[] = {
#define BT_LXW_ENTRY(f) { #f, offsetof(struct bt_lxw, f) },
	BT_LXW_FUNCS(BT_LXW_ENTRY)
#undef BT_LXW_ENTRY
};

/* Once per run, whichever output thread starts a workbook first. */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failed[300];

static void load(void)
{
	void *lib = dlopen(BT_LXW_SONAME, RTLD_NOW | RTLD_LOCAL);
	const char *why;
	size_t i;

	if (!lib) {
		why = dlerror();
		snprintf(failed, sizeof failed, "%s", why ? why : "unknown error");
		return;
	}
	for (i = 0; i < sizeof funcs / sizeof funcs[0]; i++) {
		void *f = dlsym(lib, funcs[i].name);

		if (!f) {
			snprintf(failed, sizeof failed, "no function %s", funcs[i].name);
			return;
		}
		/* A function's address from a data pointer: POSIX has dlsym's
		 * result convert, ISO C has no cast for it. */
		memcpy((char *)&bt_lxw + funcs[i].at, &f, sizeof f);
	}
}

int bt_lxw_load(struct bt_err *err)
{
	pthread_once(&once, load);
	if (failed[0])
		return bt_err_set(err, BT_EXLSX, "cannot load %s for the xlsx output: %s", BT_LXW_SONAME, failed);
	return BT_OK;
}
