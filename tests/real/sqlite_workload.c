/* SQLite under gimso: a workload written here for the amalgamation of the
 * libsqlite3-sys crate (scripts/real-programs.sh builds both).
 *
 *   sqlite_workload DBFILE ROWS
 *
 * Creates a database file, inserts ROWS customers and 2*ROWS orders in
 * transactions through prepared statements, builds indexes, runs indexed
 * point and range queries, a join with aggregation, an update, a
 * transaction that is rolled back (and checked to leave no trace), a
 * savepoint, and prints every result (the same under every build). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite3.h"

static sqlite3 *db;

static void die(const char *what) {
    fprintf(stderr, "sqlite_workload: %s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
}

static void exec(const char *sql) {
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "sqlite_workload: %s: %s\n", sql, err);
        sqlite3_free(err);
        exit(1);
    }
}

static int print_row(void *label, int n, char **values, char **names) {
    printf("%s:", (const char *)label);
    for (int i = 0; i < n; i++)
        printf(" %s=%s", names[i], values[i] ? values[i] : "NULL");
    printf("\n");
    return 0;
}

static void query(const char *label, const char *sql) {
    char *err = NULL;
    if (sqlite3_exec(db, sql, print_row, (void *)label, &err) != SQLITE_OK) {
        fprintf(stderr, "sqlite_workload: %s: %s\n", sql, err);
        exit(1);
    }
}

static long long scalar(const char *sql) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        die(sql);
    long long v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return v;
}

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
static unsigned next_rand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)rng;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s DBFILE ROWS\n", argv[0]);
        return 2;
    }
    long rows = atol(argv[2]);
    remove(argv[1]);
    if (sqlite3_open(argv[1], &db) != SQLITE_OK)
        die("open");
    exec("PRAGMA journal_mode=DELETE; PRAGMA synchronous=NORMAL;");
    exec("CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, "
         "score REAL);"
         "CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INTEGER REFERENCES "
         "customer(id), amount INTEGER, note TEXT);");

    static const char *cities[] = {"Oslo", "Lima", "Pune", "Kyiv", "Graz", "Bonn", "Nice"};
    sqlite3_stmt *ins;
    if (sqlite3_prepare_v2(db, "INSERT INTO customer VALUES(?,?,?,?)", -1, &ins, NULL))
        die("prepare customer");
    exec("BEGIN");
    char name[64];
    for (long i = 1; i <= rows; i++) {
        snprintf(name, sizeof name, "customer-%ld-%u", i, next_rand() % 1000);
        sqlite3_bind_int64(ins, 1, i);
        sqlite3_bind_text(ins, 2, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(ins, 3, cities[next_rand() % 7], -1, SQLITE_STATIC);
        sqlite3_bind_double(ins, 4, (next_rand() % 10000) / 100.0);
        if (sqlite3_step(ins) != SQLITE_DONE)
            die("insert customer");
        sqlite3_reset(ins);
        if (i % 20000 == 0) {
            exec("COMMIT");
            exec("BEGIN");
        }
    }
    exec("COMMIT");
    sqlite3_finalize(ins);

    if (sqlite3_prepare_v2(db, "INSERT INTO orders(customer, amount, note) VALUES(?,?,?)", -1,
                           &ins, NULL))
        die("prepare orders");
    exec("BEGIN");
    for (long i = 1; i <= 2 * rows; i++) {
        char note[32];
        snprintf(note, sizeof note, "n%u", next_rand() % 50);
        sqlite3_bind_int64(ins, 1, 1 + next_rand() % rows);
        sqlite3_bind_int(ins, 2, (int)(next_rand() % 5000));
        sqlite3_bind_text(ins, 3, note, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(ins) != SQLITE_DONE)
            die("insert order");
        sqlite3_reset(ins);
    }
    exec("COMMIT");
    sqlite3_finalize(ins);
    printf("inserted %lld customers, %lld orders\n", scalar("SELECT count(*) FROM customer"),
           scalar("SELECT count(*) FROM orders"));

    exec("CREATE INDEX orders_customer ON orders(customer);"
         "CREATE INDEX customer_city_score ON customer(city, score);");

    sqlite3_stmt *pt;
    if (sqlite3_prepare_v2(db, "SELECT count(*), sum(amount) FROM orders WHERE customer = ?", -1,
                           &pt, NULL))
        die("prepare point");
    long long hits = 0, amount = 0;
    for (long i = 1; i <= rows; i += 7) {
        sqlite3_bind_int64(pt, 1, i);
        if (sqlite3_step(pt) == SQLITE_ROW) {
            hits += sqlite3_column_int64(pt, 0);
            amount += sqlite3_column_int64(pt, 1);
        }
        sqlite3_reset(pt);
    }
    sqlite3_finalize(pt);
    printf("indexed point queries: %lld orders, amount %lld\n", hits, amount);

    query("range", "SELECT city, count(*) AS n, printf('%.2f', avg(score)) AS avg_score "
                   "FROM customer WHERE city BETWEEN 'G' AND 'O' AND score > 50 "
                   "GROUP BY city ORDER BY city");
    query("join", "SELECT c.city, count(o.id) AS orders, sum(o.amount) AS total "
                  "FROM customer c JOIN orders o ON o.customer = c.id "
                  "GROUP BY c.city ORDER BY total DESC LIMIT 4");
    query("top", "SELECT c.name, sum(o.amount) AS spent FROM customer c JOIN orders o "
                 "ON o.customer = c.id GROUP BY c.id ORDER BY spent DESC, c.id LIMIT 3");
    query("notes", "SELECT note, count(*) AS n FROM orders GROUP BY note ORDER BY n DESC, "
                   "note LIMIT 3");

    long long before = scalar("SELECT sum(amount) FROM orders");
    exec("BEGIN; UPDATE orders SET amount = amount * 2 WHERE customer % 3 = 0; "
         "DELETE FROM customer WHERE id % 5 = 0; INSERT INTO customer(name) VALUES('ghost');");
    printf("inside transaction: sum %lld, customers %lld\n", scalar("SELECT sum(amount) FROM orders"),
           scalar("SELECT count(*) FROM customer"));
    exec("ROLLBACK");
    printf("after rollback: sum %s, customers %lld, ghosts %lld\n",
           scalar("SELECT sum(amount) FROM orders") == before ? "unchanged" : "CHANGED",
           scalar("SELECT count(*) FROM customer"),
           scalar("SELECT count(*) FROM customer WHERE name = 'ghost'"));

    exec("BEGIN; UPDATE customer SET score = score + 1 WHERE city = 'Oslo'; SAVEPOINT s1; "
         "DELETE FROM orders WHERE amount < 100; ROLLBACK TO s1; RELEASE s1; COMMIT;");
    printf("after savepoint: orders %lld, oslo score %s\n", scalar("SELECT count(*) FROM orders"),
           scalar("SELECT count(*) FROM customer WHERE city = 'Oslo' AND score >= 1") >= 0 ? "ok"
                                                                                            : "bad");
    query("integrity", "PRAGMA integrity_check");
    if (sqlite3_close(db) != SQLITE_OK)
        die("close");
    remove(argv[1]);
    printf("sqlite %s done\n", sqlite3_libversion());
    return 0;
}
