/*
 * day: calendar dates as modelcat writes them, YYYY-MM-DD, in UTC: today,
 * tomorrow, now as a timestamp, and whether a text is a real date.
 */
#ifndef MODELCAT_DAY_H
#define MODELCAT_DAY_H

/* Today's date as YYYY-MM-DD (UTC) into buf[11]. */
void day_today(char buf[11]);
/* Tomorrow's date (UTC) into buf[11]: the latest a snapshot may be dated
 * without --allow-future. */
void day_tomorrow(char buf[11]);
/* Now as YYYY-MM-DDTHH:MM:SSZ into buf[32]. */
void day_now(char buf[32]);
/* Is s a valid YYYY-MM-DD date (leap years included)? */
int day_valid(const char *s);

#endif
