/* gimso-test
 * expect: error out-of-bounds write
 * line: 109
 * native: no-asan (no data is waiting, so natively nothing is written; the buffer is still shorter than the count)
 * stdout:
 * | pton 1 7f000001 ntop 127.0.0.1 v6 ::1 short 0
 * | stream connect 0 accept 1 peer 1 sent 5 got [hello] reuse 1 type 1
 * | dgram 4 4 [ping]
 * | pair 3 [abc]
 * | getaddrinfo 0 family 1 port 80 canon 0 next 0 error [Name or service not known]
 * | order 3412 78563412
 * | getnameinfo 0 [127.0.0.1] [80] overflow 1
 */
/* Sockets (Unix-domain, so no network is needed): a stream (bind, listen,
 * connect, accept, send, recv, names, options), datagrams (sendto,
 * recvfrom), socketpair; address conversion, getaddrinfo's list (numeric,
 * no lookup) as checked objects; recv into a buffer shorter than its count
 * is caught. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(void) {
    unsigned char a4[4];
    int p = inet_pton(AF_INET, "127.0.0.1", a4);
    char text[INET6_ADDRSTRLEN];
    struct in6_addr a6;
    inet_pton(AF_INET6, "::1", &a6);
    char v6[INET6_ADDRSTRLEN];
    char tiny[4];
    printf("pton %d %02x%02x%02x%02x ntop %s v6 %s short %d\n", p, a4[0], a4[1], a4[2], a4[3],
           inet_ntop(AF_INET, a4, text, sizeof text), inet_ntop(AF_INET6, &a6, v6, sizeof v6),
           inet_ntop(AF_INET, a4, tiny, sizeof tiny) != NULL);

    /* Unix-domain sockets: no network needed. */
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "/tmp/gimso-sock-%d", (int)getpid());
    unlink(sa.sun_path);
    int ls = socket(AF_UNIX, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    bind(ls, (struct sockaddr *)&sa, sizeof sa);
    listen(ls, 4);
    struct sockaddr_un named;
    socklen_t len = sizeof named;
    getsockname(ls, (struct sockaddr *)&named, &len);
    int c = socket(AF_UNIX, SOCK_STREAM, 0);
    int rc = connect(c, (struct sockaddr *)&sa, sizeof sa);
    struct sockaddr_un peer;
    socklen_t plen = sizeof peer;
    int s = accept(ls, (struct sockaddr *)&peer, &plen);
    struct sockaddr_un pn;
    socklen_t pnl = sizeof pn;
    getpeername(c, (struct sockaddr *)&pn, &pnl);
    long sent = send(c, "hello", 5, 0);
    char got[8] = {0};
    recv(s, got, 5, MSG_WAITALL);
    int val = 0, ty = 0;
    socklen_t vl = sizeof val, tl = sizeof ty;
    getsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &val, &vl);
    getsockopt(s, SOL_SOCKET, SO_TYPE, &ty, &tl);
    printf("stream connect %d accept %d peer %d sent %ld got [%s] reuse %d type %d\n", rc, s >= 0,
           strcmp(pn.sun_path, sa.sun_path) == 0 && strcmp(named.sun_path, sa.sun_path) == 0, sent, got,
           val != 0, ty == SOCK_STREAM);
    unlink(sa.sun_path);

    struct sockaddr_un ua = {.sun_family = AF_UNIX};
    snprintf(ua.sun_path, sizeof ua.sun_path, "/tmp/gimso-dgram-%d", (int)getpid());
    unlink(ua.sun_path);
    int u1 = socket(AF_UNIX, SOCK_DGRAM, 0), u2 = socket(AF_UNIX, SOCK_DGRAM, 0);
    bind(u1, (struct sockaddr *)&ua, sizeof ua);
    long us = sendto(u2, "ping", 4, 0, (struct sockaddr *)&ua, sizeof ua);
    char ub[8] = {0};
    struct sockaddr_un from;
    socklen_t fl = sizeof from;
    long ur = recvfrom(u1, ub, sizeof ub, 0, (struct sockaddr *)&from, &fl);
    printf("dgram %ld %ld [%s]\n", us, ur, ub);
    unlink(ua.sun_path);

    int sv[2];
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    long w = write(sv[0], "abc", 3);
    char pb[4] = {0};
    read(sv[1], pb, 3);
    printf("pair %ld [%s]\n", w, pb);
    struct addrinfo hints = {.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV, .ai_family = AF_INET,
                             .ai_socktype = SOCK_STREAM};
    struct addrinfo *res = NULL;
    int g = getaddrinfo("127.0.0.1", "80", &hints, &res);
    struct sockaddr_in *ra = (struct sockaddr_in *)res->ai_addr;
    printf("getaddrinfo %d family %d port %d canon %d next %d error [%s]\n", g, res->ai_family == AF_INET,
           ntohs(ra->sin_port), res->ai_canonname != NULL, res->ai_next != NULL, gai_strerror(EAI_NONAME));
    freeaddrinfo(res);
    printf("order %x %x\n", (unsigned)htons(0x1234), (unsigned)htonl(0x12345678));
    struct sockaddr_in in4 = {.sin_family = AF_INET, .sin_port = htons(80), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    char host[32], serv[8], tinyhost[4];
    int gn = getnameinfo((struct sockaddr *)&in4, sizeof in4, host, sizeof host, serv, sizeof serv,
                         NI_NUMERICHOST | NI_NUMERICSERV);
    int ov = getnameinfo((struct sockaddr *)&in4, sizeof in4, tinyhost, sizeof tinyhost, NULL, 0, NI_NUMERICHOST);
    printf("getnameinfo %d [%s] [%s] overflow %d\n", gn, host, serv, ov == EAI_OVERFLOW);
    char *small = malloc(4);
    return (int)recv(s, small, 64, MSG_DONTWAIT);
}
