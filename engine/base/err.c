/*
 * Error recording (see err.h). Only main.c prints what ends up here.
 */
#include <stdarg.h>
#include <stdio.h>

#include "engine/base/err.h"

int bt_err_set(struct bt_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err || err->code != BT_OK)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return code;
}

void bt_err_clear(struct bt_err *err)
{
	err->code = BT_OK;
	err->msg[0] = '\0';
}

int bt_err_exit_status(int code)
{
	if (code == BT_OK)
		return 0;
	if (code == BT_EUSAGE)
		return 2;
	if (code == BT_EBATCH)
		return 4;
	if (code == BT_EUNDECIDED)
		return 5;
	if (code == BT_EMORE)
		return 6;
	return code == BT_EGATE ? 3 : 1;
}
