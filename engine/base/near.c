/* Closest names for "did you mean" (see near.h). */
#include <string.h>

#include "engine/base/near.h"

#define NEAR_MAX 64

int bt_near_distance(const char *a, size_t na, const char *b, size_t nb)
{
	int d[NEAR_MAX + 1][NEAR_MAX + 1];
	size_t i, j;

	if (na > NEAR_MAX || nb > NEAR_MAX)
		return (int)(na > nb ? na : nb) + 1;
	for (i = 0; i <= na; i++)
		d[i][0] = (int)i;
	for (j = 0; j <= nb; j++)
		d[0][j] = (int)j;
	for (i = 1; i <= na; i++) {
		for (j = 1; j <= nb; j++) {
			int cost = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + cost;
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;   /* neighbours swapped */
			d[i][j] = v;
		}
	}
	return d[na][nb];
}

/* Prefixes count from 4 characters on, so "--o" is not near "--output". */
static int prefix(const char *name, size_t n, const char *cand)
{
	size_t m = strlen(cand), k = n < m ? n : m;

	return k >= 4 && !strncmp(name, cand, k);
}

static int edits(const char *name, size_t n, const char *cand)
{
	int d = bt_near_distance(name, n, cand, strlen(cand));

	return d <= (n <= 3 ? 1 : 2) ? d : -1;
}

int bt_near(const char *name, size_t n, const char *cand)
{
	return edits(name, n, cand) >= 0 || prefix(name, n, cand);
}

const char *bt_near_best(const char *name, size_t n, const char *const *cands, size_t ncands)
{
	const char *best = NULL;
	int best_d = 1 << 30;
	size_t i;

	for (i = 0; i < ncands; i++) {
		int d;
		if (!cands[i])
			continue;
		d = edits(name, n, cands[i]);
		if (d < 0 && prefix(name, n, cands[i]))
			d = 3;   /* after every edit match */
		if (d >= 0 && d < best_d) {
			best = cands[i];
			best_d = d;
		}
	}
	return best;
}
