/* gimso-test
 * expect: run
 * stdout:
 * | 1.414214 1.259921 0.841471 2.718282 0.693147 3.000000 1024.000000
 * | asinh 0.881374 erf 0.842701 tgamma 24.000000 lgamma 3.178054 fma 7.000000
 * | frexp 0.750000 * 2^4, frexpf 0.750000 * 2^4, modf 3 + 0.250000, modff 3 + 0.250000
 * | sincos 0.479426 0.877583, sincosf 0.479426 0.877583
 * | remquo 1.000000 q 3, lgamma_r 0.000000 sign 1, nan is nan 1
 * | llround 3 lrint 2 ilogb 10 scalbn 12.000000 nextafter up 1
 * | floats 2.000000 0.500000 1.000000 5.000000
 */
/* <math.h>: value functions of both widths and the ones that write
 * through pointers (frexp, modf, sincos, remquo, lgamma_r). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>

int main(void) {
    volatile double two = 2.0, one = 1.0, half = 0.5;
    printf("%f %f %f %f %f %f %f\n", sqrt(two), cbrt(two), sin(one), exp(one), log(two),
           floor(3.7), pow(two, 10));
    printf("asinh %f erf %f tgamma %f lgamma %f fma %f\n", asinh(one), erf(one), tgamma(5.0),
           lgamma(5.0), fma(two, 3.0, one));
    int e, ef;
    double ip;
    float ipf;
    double m = frexp(12.0, &e);
    float mf = frexpf(12.0f, &ef);
    double fr = modf(3.25, &ip);
    float frf = modff(3.25f, &ipf);
    printf("frexp %f * 2^%d, frexpf %f * 2^%d, modf %.0f + %f, modff %.0f + %f\n", m, e, mf,
           ef, fr == 0.25 ? ip : -1, fr, (double)ipf, (double)frf);
    double s, c;
    float sf, cf;
    sincos(half, &s, &c);
    sincosf((float)half, &sf, &cf);
    printf("sincos %f %f, sincosf %f %f\n", s, c, (double)sf, (double)cf);
    int q, sign;
    double r = remquo(10.0, 3.0, &q);
    double lg = lgamma_r(1.0, &sign);
    printf("remquo %f q %d, lgamma_r %f sign %d, nan is nan %d\n", r, q, lg, sign,
           isnan(nan("")) != 0);
    printf("llround %lld lrint %ld ilogb %d scalbn %f nextafter up %d\n", llround(2.5),
           lrint(2.5), ilogb(1024.0), scalbn(3.0, 2), nextafter(1.0, 2.0) > 1.0);
    volatile float four = 4.0f;
    printf("floats %f %f %f %f\n", (double)sqrtf(four), (double)hypotf(0.3f, 0.4f),
           (double)fmaxf(1.0f, -1.0f), (double)truncf(5.9f));
    return 0;
}
