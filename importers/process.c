#include "importers/process.h"

#include <stdlib.h>
#include <string.h>

int bt_process_wanted(const char *want, int64_t pid, const char *lbl)
{
	char *end;
	long long n = strtoll(want, &end, 10);

	return (*want && !*end && n == pid) || bt_process_named(lbl, want);
}

int bt_process_named(const char *lbl, const char *want)
{
	const char *slash;

	if (!lbl)
		return 0;
	slash = strrchr(lbl, '/');
	return !strcmp(lbl, want) || (slash && !strcmp(slash + 1, want));
}
