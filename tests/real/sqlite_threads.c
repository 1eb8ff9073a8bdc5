/* SQLite from several threads under gimso: a driver written here for the
 * amalgamation of the libsqlite3-sys crate (scripts/real-programs.sh builds
 * both, with SQLITE_THREADSAFE=1).
 *
 *   sqlite_threads DBFILE THREADS ROWS
 *
 * Each thread opens its own connection to one database file in WAL mode
 * (shared-memory index mapped by every connection, POSIX locks shared
 * through SQLite's per-inode tables and mutexes), waits on busy locks, and
 * inserts ROWS rows in transactions of 50, reading its own progress back
 * as it goes. The main thread then checks per-thread counts and sums and
 * the database's integrity. The output is the same under every build. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite3.h"

static const char *path;
static long rows;

struct worker {
    int id;
    long inserted;
    long busy_retries;
    char error[128];
};

static int exec_retry(sqlite3 *db, const char *sql, struct worker *w) {
    for (;;) {
        char *err = NULL;
        int rc = sqlite3_exec(db, sql, NULL, NULL, &err);
        if (rc == SQLITE_OK) return 0;
        if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) {
            sqlite3_free(err);
            w->busy_retries++;
            continue;
        }
        snprintf(w->error, sizeof w->error, "%s: %s", sql, err ? err : "?");
        sqlite3_free(err);
        return -1;
    }
}

static void *work(void *arg) {
    struct worker *w = arg;
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) {
        snprintf(w->error, sizeof w->error, "open");
        return NULL;
    }
    sqlite3_busy_timeout(db, 10000);
    sqlite3_stmt *ins, *count;
    if (sqlite3_prepare_v2(db, "INSERT INTO t(thread, seq, payload) VALUES(?,?,?)", -1, &ins, NULL) ||
        sqlite3_prepare_v2(db, "SELECT count(*) FROM t WHERE thread = ?", -1, &count, NULL)) {
        snprintf(w->error, sizeof w->error, "prepare: %s", sqlite3_errmsg(db));
        return NULL;
    }
    char payload[96];
    for (long i = 0; i < rows && !w->error[0]; i += 50) {
        if (exec_retry(db, "BEGIN IMMEDIATE", w)) break;
        for (long j = i; j < i + 50 && j < rows; j++) {
            snprintf(payload, sizeof payload, "thread %d row %ld %0*d", w->id, j, (int)(j % 40), 7);
            sqlite3_bind_int(ins, 1, w->id);
            sqlite3_bind_int64(ins, 2, j);
            sqlite3_bind_text(ins, 3, payload, -1, SQLITE_TRANSIENT);
            if (sqlite3_step(ins) != SQLITE_DONE) {
                snprintf(w->error, sizeof w->error, "insert: %s", sqlite3_errmsg(db));
                break;
            }
            sqlite3_reset(ins);
            w->inserted++;
        }
        if (w->error[0] || exec_retry(db, "COMMIT", w)) break;
        sqlite3_bind_int(count, 1, w->id);
        if (sqlite3_step(count) != SQLITE_ROW || sqlite3_column_int64(count, 0) != w->inserted)
            snprintf(w->error, sizeof w->error, "own rows not visible after commit");
        sqlite3_reset(count);
    }
    sqlite3_finalize(ins);
    sqlite3_finalize(count);
    sqlite3_close(db);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s DBFILE THREADS ROWS\n", argv[0]);
        return 2;
    }
    path = argv[1];
    int threads = atoi(argv[2]);
    rows = atol(argv[3]);
    if (threads < 1 || threads > 16 || rows < 1) return 2;
    char aux[512];
    remove(path);
    snprintf(aux, sizeof aux, "%s-wal", path);
    remove(aux);
    snprintf(aux, sizeof aux, "%s-shm", path);
    remove(aux);

    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) return 1;
    char *err = NULL;
    if (sqlite3_exec(db,
                     "PRAGMA journal_mode=WAL;"
                     "CREATE TABLE t(id INTEGER PRIMARY KEY, thread INTEGER, seq INTEGER, payload TEXT);"
                     "CREATE INDEX t_thread ON t(thread, seq);",
                     NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "setup: %s\n", err);
        return 1;
    }

    pthread_t tid[16];
    struct worker w[16];
    for (int i = 0; i < threads; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].id = i + 1;
        pthread_create(&tid[i], NULL, work, &w[i]);
    }
    int ok = 1;
    for (int i = 0; i < threads; i++) {
        pthread_join(tid[i], NULL);
        if (w[i].error[0]) {
            printf("thread %d: %s\n", w[i].id, w[i].error);
            ok = 0;
        }
    }

    sqlite3_stmt *q;
    sqlite3_prepare_v2(db, "SELECT thread, count(*), sum(seq), sum(length(payload)) FROM t GROUP BY thread ORDER BY thread",
                       -1, &q, NULL);
    while (sqlite3_step(q) == SQLITE_ROW) {
        printf("thread %d: rows %lld seq sum %lld payload bytes %lld\n", sqlite3_column_int(q, 0),
               sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2), sqlite3_column_int64(q, 3));
    }
    sqlite3_finalize(q);
    sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &q, NULL);
    if (sqlite3_step(q) == SQLITE_ROW) printf("integrity_check=%s\n", sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    sqlite3_close(db);
    printf("%s\n", ok ? "sqlite threads: all rows committed" : "sqlite threads: FAILED");
    return ok ? 0 : 1;
}
