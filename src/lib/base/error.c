#include "base/error.h"

#include <stdio.h>
#include <string.h>

void mc_err_clear(mc_err *err)
{
	if (err)
		err->msg[0] = '\0';
}

int mc_verror(mc_err *err, const char *fmt, va_list ap)
{
	if (err)
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return -1;
}

int mc_error(mc_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mc_verror(err, fmt, ap);
	va_end(ap);
	return -1;
}

int mc_error_prefix(mc_err *err, const char *fmt, ...)
{
	char before[MC_ERR_MAX];
	size_t n;
	va_list ap;

	if (!err)
		return -1;
	memcpy(before, err->msg, sizeof(before));
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	n = strlen(err->msg);
	snprintf(err->msg + n, sizeof(err->msg) - n, ": %s", before);
	return -1;
}
