/* gimso-test
 * expect: run
 * env: TZ=UTC
 * stdout:
 * | gmtime_r: 2001-09-09 01:46:40 wday 0 yday 251 zone GMT
 * | localtime_r: 01:46:40 zone UTC gmtoff 0
 * | mktime normalised: 2024-03-01 (wday 5, yday 60) -> 1709294400
 * | timegm: 1709294400, difftime 86400
 * | strftime: [Sun, 09 Sep 2001 01:46:40 +0000 UTC] (35)
 * | strftime too small: 0
 * | asctime_r: Sun Sep  9 01:46:40 2001
 * | ctime_r: Sun Sep  9 01:46:40 2001
 * | localtime static: 2001 == 2001
 * | setlocale C: C, query: C
 * | localeconv: decimal point '.', thousands sep '', frac digits 127
 */
/* Calendar time and locale wrappers: struct tm conversions both ways with
 * their zone-name pointers usable, strftime into a big enough and a too
 * small (but honestly sized) buffer, the 26-byte asctime/ctime buffers,
 * setlocale and localeconv. */
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int main(void) {
    time_t t = 1000000000;
    struct tm tm;
    gmtime_r(&t, &tm);
    printf("gmtime_r: %04d-%02d-%02d %02d:%02d:%02d wday %d yday %d zone %s\n",
           tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
           tm.tm_sec, tm.tm_wday, tm.tm_yday, tm.tm_zone);
    struct tm lt;
    localtime_r(&t, &lt);
    printf("localtime_r: %02d:%02d:%02d zone %s gmtoff %ld\n", lt.tm_hour, lt.tm_min,
           lt.tm_sec, lt.tm_zone, lt.tm_gmtoff);

    struct tm m = {0};
    m.tm_year = 124;
    m.tm_mon = 1;
    m.tm_mday = 30; /* Feb 30 -> Mar 1 */
    m.tm_hour = 12;
    m.tm_isdst = -1;
    time_t mt = mktime(&m);
    printf("mktime normalised: %04d-%02d-%02d (wday %d, yday %d) -> %lld\n",
           m.tm_year + 1900, m.tm_mon + 1, m.tm_mday, m.tm_wday, m.tm_yday,
           (long long)mt);
    struct tm g = m;
    time_t gt = timegm(&g);
    printf("timegm: %lld, difftime %.0f\n", (long long)gt, difftime(gt + 86400, gt));

    char buf[64];
    size_t n = strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S %z %Z", &lt);
    printf("strftime: [%s] (%zu)\n", buf, n);
    char small[8];
    printf("strftime too small: %zu\n", strftime(small, sizeof small, "%Y-%m-%d %H", &lt));

    char ab[26];
    asctime_r(&tm, ab);
    printf("asctime_r: %s", ab);
    ctime_r(&t, ab);
    printf("ctime_r: %s", ab);
    struct tm *st = localtime(&t);
    printf("localtime static: %d == %d\n", st->tm_year + 1900, gmtime(&t)->tm_year + 1900);

    const char *name = setlocale(LC_ALL, "C");
    printf("setlocale C: %s, query: %s\n", name, setlocale(LC_NUMERIC, NULL));
    struct lconv *lc = localeconv();
    printf("localeconv: decimal point '%s', thousands sep '%s', frac digits %d\n",
           lc->decimal_point, lc->thousands_sep, lc->frac_digits);
    return 0;
}
