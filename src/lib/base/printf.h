/*
 * printf: formatted text into a fixed buffer, faster than stdio's for the
 * formats most calls pass.
 */
#ifndef MODELCAT_PRINTF_H
#define MODELCAT_PRINTF_H

#include <stdarg.h>
#include <stddef.h>

#include "base/error.h"

/* vsnprintf(), faster for the formats most calls pass (only %s, %c, %d,
 * %i, %u with l, ll or z, and %%): the same bytes and result. */
int mc_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap) MC_PRINTF(3, 0);
/* snprintf into a fixed buffer, always terminated, truncating if needed. */
void mc_fmt(char *buf, size_t len, const char *fmt, ...) MC_PRINTF(3, 4);

#endif
