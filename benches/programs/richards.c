/* richards: Martin Richards' operating-system task scheduler simulation
 * (the classic benchmark), with packet queues held in pointer fields.
 * Usage: richards [iterations]   (default 1200) */
#include <stdio.h>
#include <stdlib.h>

#define COUNT 10000
#define EXPECTED_QPKT 23246
#define EXPECTED_HOLD 9297

#define BUFSIZE 3
#define I_IDLE 1
#define I_WORK 2
#define I_HANDLERA 3
#define I_HANDLERB 4
#define I_DEVA 5
#define I_DEVB 6
#define TASKTAB_SIZE 10

#define PKTBIT 1
#define WAITBIT 2
#define HOLDBIT 4
#define NOTHOLDBIT (~HOLDBIT)

#define S_RUN 0
#define S_RUNPKT 1
#define S_WAIT 2
#define S_WAITPKT 3
#define S_HOLD 4
#define S_HOLDPKT 5
#define S_HOLDWAIT 6
#define S_HOLDWAITPKT 7

#define K_DEV 1000
#define K_WORK 1001
#define MAXINT 32767

struct packet {
    struct packet *link;
    int id;
    int kind;
    int a1;
    char a2[BUFSIZE + 1];
};

struct task {
    struct task *link;
    int id;
    int pri;
    struct packet *wkq;
    int state;
    struct task *(*fn)(struct packet *);
    long v1, v2;
    struct packet *p1, *p2;
};

static const char alphabet[28] = "0ABCDEFGHIJKLMNOPQRSTUVWXYZ";
static struct task *tasktab[TASKTAB_SIZE + 1];
static struct task *tasklist;
static struct task *tcb;
static long taskid, v1, v2;
static struct packet *p1, *p2;
static long qpktcount, holdcount;

static void createtask(int id, int pri, struct packet *wkq, int state,
                       struct task *(*fn)(struct packet *), long a, long b) {
    struct task *t = malloc(sizeof *t);
    tasktab[id] = t;
    t->link = tasklist;
    t->id = id;
    t->pri = pri;
    t->wkq = wkq;
    t->state = state;
    t->fn = fn;
    t->v1 = a;
    t->v2 = b;
    t->p1 = t->p2 = NULL;
    tasklist = t;
}

static struct packet *pkt(struct packet *link, int id, int kind) {
    struct packet *p = malloc(sizeof *p);
    for (int i = 0; i <= BUFSIZE; i++)
        p->a2[i] = 0;
    p->link = link;
    p->id = id;
    p->kind = kind;
    p->a1 = 0;
    return p;
}

static void schedule(void) {
    while (tcb) {
        struct packet *p = NULL;
        struct task *next;
        switch (tcb->state) {
        case S_WAITPKT:
            p = tcb->wkq;
            tcb->wkq = p->link;
            tcb->state = tcb->wkq == NULL ? S_RUN : S_RUNPKT;
            /* fall through */
        case S_RUN:
        case S_RUNPKT:
            taskid = tcb->id;
            v1 = tcb->v1;
            v2 = tcb->v2;
            p1 = tcb->p1;
            p2 = tcb->p2;
            next = tcb->fn(p);
            tcb->v1 = v1;
            tcb->v2 = v2;
            tcb->p1 = p1;
            tcb->p2 = p2;
            tcb = next;
            break;
        case S_WAIT:
        case S_HOLD:
        case S_HOLDPKT:
        case S_HOLDWAIT:
        case S_HOLDWAITPKT:
            tcb = tcb->link;
            break;
        default:
            return;
        }
    }
}

static struct task *wait_task(void) {
    tcb->state |= WAITBIT;
    return tcb;
}

static struct task *holdself(void) {
    ++holdcount;
    tcb->state |= HOLDBIT;
    return tcb->link;
}

static struct task *findtcb(int id) {
    struct task *t = NULL;
    if (1 <= id && id <= TASKTAB_SIZE)
        t = tasktab[id];
    if (!t)
        printf("bad task id %d\n", id);
    return t;
}

static struct task *release(int id) {
    struct task *t = findtcb(id);
    if (!t)
        return NULL;
    t->state &= NOTHOLDBIT;
    return t->pri > tcb->pri ? t : tcb;
}

static void append(struct packet *p, struct packet **queue) {
    p->link = NULL;
    while (*queue)
        queue = &(*queue)->link;
    *queue = p;
}

static struct task *qpkt(struct packet *p) {
    struct task *t = findtcb(p->id);
    if (!t)
        return NULL;
    qpktcount++;
    p->link = NULL;
    p->id = (int)taskid;
    if (!t->wkq) {
        t->wkq = p;
        t->state |= PKTBIT;
        if (t->pri > tcb->pri)
            return t;
    } else {
        append(p, &t->wkq);
    }
    return tcb;
}

static struct task *idlefn(struct packet *p) {
    (void)p;
    --v2;
    if (v2 == 0)
        return holdself();
    if ((v1 & 1) == 0) {
        v1 = (v1 >> 1) & MAXINT;
        return release(I_DEVA);
    }
    v1 = ((v1 >> 1) & MAXINT) ^ 0xD008;
    return release(I_DEVB);
}

static struct task *workfn(struct packet *p) {
    if (!p)
        return wait_task();
    v1 = I_HANDLERA + I_HANDLERB - v1;
    p->id = (int)v1;
    p->a1 = 0;
    for (int i = 0; i <= BUFSIZE; i++) {
        v2++;
        if (v2 > 26)
            v2 = 1;
        p->a2[i] = alphabet[v2];
    }
    return qpkt(p);
}

static struct task *handlerfn(struct packet *p) {
    if (p)
        append(p, p->kind == K_WORK ? &p1 : &p2);
    if (p1) {
        struct packet *work = p1;
        int count = work->a1;
        if (count > BUFSIZE) {
            p1 = p1->link;
            return qpkt(work);
        }
        if (p2) {
            struct packet *dev = p2;
            p2 = p2->link;
            dev->a1 = work->a2[count];
            work->a1 = count + 1;
            return qpkt(dev);
        }
    }
    return wait_task();
}

static long dev_sum;

static struct task *devfn(struct packet *p) {
    if (!p) {
        if (!p1)
            return wait_task();
        p = p1;
        p1 = NULL;
        return qpkt(p);
    }
    p1 = p;
    dev_sum += p->a1;
    return holdself();
}

static int run_once(void) {
    tasklist = NULL;
    for (int i = 0; i <= TASKTAB_SIZE; i++)
        tasktab[i] = NULL;
    struct packet *wkq = NULL;
    createtask(I_IDLE, 0, wkq, S_RUN, idlefn, 1, COUNT);
    wkq = pkt(NULL, 0, K_WORK);
    wkq = pkt(wkq, 0, K_WORK);
    createtask(I_WORK, 1000, wkq, S_WAITPKT, workfn, I_HANDLERA, 0);
    wkq = pkt(NULL, I_DEVA, K_DEV);
    wkq = pkt(wkq, I_DEVA, K_DEV);
    wkq = pkt(wkq, I_DEVA, K_DEV);
    createtask(I_HANDLERA, 2000, wkq, S_WAITPKT, handlerfn, 0, 0);
    wkq = pkt(NULL, I_DEVB, K_DEV);
    wkq = pkt(wkq, I_DEVB, K_DEV);
    wkq = pkt(wkq, I_DEVB, K_DEV);
    createtask(I_HANDLERB, 3000, wkq, S_WAITPKT, handlerfn, 0, 0);
    wkq = NULL;
    createtask(I_DEVA, 4000, wkq, S_WAIT, devfn, 0, 0);
    createtask(I_DEVB, 5000, wkq, S_WAIT, devfn, 0, 0);
    tcb = tasklist;
    qpktcount = holdcount = 0;
    schedule();
    /* Tasks and packets become garbage (the collector or leaks take them). */
    for (int i = 1; i <= TASKTAB_SIZE; i++)
        if (tasktab[i]) {
            free(tasktab[i]);
            tasktab[i] = NULL;
        }
    return qpktcount == EXPECTED_QPKT && holdcount == EXPECTED_HOLD;
}

int main(int argc, char **argv) {
    int iterations = argc > 1 ? atoi(argv[1]) : 1200;
    int ok = 0;
    for (int i = 0; i < iterations; i++)
        ok += run_once();
    printf("richards: %d/%d runs correct (qpkt %ld hold %ld), device checksum %ld\n", ok,
           iterations, qpktcount, holdcount, dev_sum);
    return ok == iterations ? 0 : 1;
}
