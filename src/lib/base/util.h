/*
 * util: every base module most code uses, in one include, for the code
 * that has not yet named what it uses: base/sbuf.h (the byte buffer),
 * alloc.h (checked allocation), strpool.h, printf.h (mc_fmt), text.h,
 * cleanup.h (files removed when the program stops short), thread.h
 * (threads, jobs, cores) and version.h. New code includes the module it
 * uses.
 */
#ifndef MODELCAT_UTIL_H
#define MODELCAT_UTIL_H

#include "base/alloc.h"
#include "base/cleanup.h"
#include "base/error.h"
#include "base/printf.h"
#include "base/sbuf.h"
#include "base/strpool.h"
#include "base/text.h"
#include "base/thread.h"
#include "base/version.h"

#endif
