#include "base/day.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The UTC time seconds_from_now away, formatted by format into buf. */
static void utc_format(long seconds_from_now, const char *format, char *buf, size_t len)
{
	time_t when = time(NULL) + seconds_from_now;
	struct tm tm;

	gmtime_r(&when, &tm);
	strftime(buf, len, format, &tm);
}

void day_today(char buf[11])
{
	utc_format(0, "%Y-%m-%d", buf, 11);
}

void day_tomorrow(char buf[11])
{
	utc_format(24L * 60 * 60, "%Y-%m-%d", buf, 11);
}

void day_now(char buf[32])
{
	utc_format(0, "%Y-%m-%dT%H:%M:%SZ", buf, 32);
}

int day_valid(const char *s)
{
	static const int days[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int i, year, month, day;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return 0;
	year = atoi(s);
	month = atoi(s + 5);
	day = atoi(s + 8);
	if (month < 1 || month > 12 || day < 1 || day > days[month - 1])
		return 0;
	if (month == 2 && day == 29 && !(year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)))
		return 0;
	return 1;
}
