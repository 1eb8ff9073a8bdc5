/* gimso-test
 * expect: run
 * exit: 134
 * stderr: freeaddrinfo: the pointer is not a list returned by getaddrinfo (or it was freed already)
 * native: differs (natively a double free of glibc's list: undefined behaviour)
 * stdout:
 * | resolved 0
 */
/* freeaddrinfo of a list freed already stops the program with a clear
 * error. */
#include <netdb.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_flags = AI_NUMERICHOST;
    struct addrinfo *res;
    printf("resolved %d\n", getaddrinfo("10.0.0.1", NULL, &hints, &res));
    freeaddrinfo(res);
    freeaddrinfo(res);
    return 0;
}
