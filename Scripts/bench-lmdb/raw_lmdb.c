/*
 * The raw-LMDB baseline for Scripts/bench: the same work as the event log's
 * append and catch-up benchmarks, done directly with liblmdb.
 *
 *   raw_lmdb <empty directory> <entries> <batch> <value bytes> [indexed]
 *
 * Appends <entries> values under 8-byte big-endian keys 1, 2, 3, … with
 * MDB_APPEND, <batch> puts per durable (fully synced) write transaction, in
 * a named database as the log does; then reads them all back with a cursor,
 * touching every key and value. With a fifth argument of 1, every put also
 * writes the three rows the store's index adds for a saved sample, each with
 * MDB_APPEND into its own database and of the store's sizes: the object row
 * (16-byte key, 60-byte value), the type/time row (20-byte key, 8-byte
 * value) and the type/seq row (12-byte key, 17-byte value); the floor under
 * the store's save throughput. Prints one line:
 *
 *   append_seconds=<s> scan_seconds=<s> entries=<n> file_bytes=<n>
 */
#include <errno.h>
#include <lmdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static void check(int rc, const char *what) {
    if (rc != MDB_SUCCESS) {
        fprintf(stderr, "raw_lmdb: %s: %s\n", what, mdb_strerror(rc));
        exit(1);
    }
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: raw_lmdb <directory> <entries> <batch> <value bytes> [indexed]\n");
        return 2;
    }
    const char *dir = argv[1];
    long entries = atol(argv[2]), batch = atol(argv[3]), size = atol(argv[4]);
    int indexed = argc == 6 && atoi(argv[5]) == 1;
    static const size_t index_keys[3] = {16, 20, 12}, index_values[3] = {60, 8, 17};
    unsigned char index_value[64] = {0};

    MDB_env *env;
    check(mdb_env_create(&env), "mdb_env_create");
    check(mdb_env_set_mapsize(env, (size_t)8 << 30), "mdb_env_set_mapsize");
    check(mdb_env_set_maxdbs(env, 4), "mdb_env_set_maxdbs");
    check(mdb_env_open(env, dir, MDB_NOTLS, 0644), "mdb_env_open");

    MDB_txn *txn;
    MDB_dbi dbi, index_dbi[3];
    check(mdb_txn_begin(env, NULL, 0, &txn), "mdb_txn_begin");
    check(mdb_dbi_open(txn, "log", MDB_CREATE, &dbi), "mdb_dbi_open");
    const char *index_names[3] = {"objects", "type-time", "type-seq"};
    for (int d = 0; indexed && d < 3; d++) check(mdb_dbi_open(txn, index_names[d], MDB_CREATE, &index_dbi[d]), "mdb_dbi_open");
    check(mdb_txn_commit(txn), "mdb_txn_commit");

    unsigned char *value = malloc(size > 0 ? size : 1);
    for (long i = 0; i < size; i++) value[i] = (unsigned char)(i * 31 + 7);

    double start = now();
    uint64_t seq = 0;
    while ((long)seq < entries) {
        check(mdb_txn_begin(env, NULL, 0, &txn), "mdb_txn_begin");
        for (long i = 0; i < batch && (long)seq < entries; i++) {
            seq++;
            unsigned char key[8];
            for (int b = 0; b < 8; b++) key[b] = (unsigned char)(seq >> (56 - 8 * b));
            value[0] = (unsigned char)seq;
            MDB_val k = {8, key}, v = {(size_t)size, value};
            check(mdb_put(txn, dbi, &k, &v, MDB_APPEND), "mdb_put");
            for (int d = 0; indexed && d < 3; d++) {
                /* Keys that sort in save order, as time-ordered uuids and new samples' rows do. */
                unsigned char index_key[20] = {0};
                memcpy(index_key + index_keys[d] - 8, key, 8);
                MDB_val ik = {index_keys[d], index_key}, iv = {index_values[d], index_value};
                check(mdb_put(txn, index_dbi[d], &ik, &iv, MDB_APPEND), "mdb_put");
            }
        }
        check(mdb_txn_commit(txn), "mdb_txn_commit");
    }
    double appended = now();

    MDB_cursor *cursor;
    MDB_val k, v;
    uint64_t checksum = 0, count = 0;
    check(mdb_txn_begin(env, NULL, MDB_RDONLY, &txn), "mdb_txn_begin");
    check(mdb_cursor_open(txn, dbi, &cursor), "mdb_cursor_open");
    int rc = mdb_cursor_get(cursor, &k, &v, MDB_FIRST);
    while (rc == MDB_SUCCESS) {
        checksum += ((unsigned char *)k.mv_data)[7] + ((unsigned char *)v.mv_data)[0] + v.mv_size;
        count++;
        rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT);
    }
    if (rc != MDB_NOTFOUND) check(rc, "mdb_cursor_get");
    mdb_cursor_close(cursor);
    mdb_txn_abort(txn);
    double scanned = now();

    if ((long)count != entries) {
        fprintf(stderr, "raw_lmdb: read %llu entries, expected %ld\n", (unsigned long long)count, entries);
        return 1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/data.mdb", dir);
    struct stat st;
    long long file_bytes = stat(path, &st) == 0 ? (long long)st.st_size : -1;
    mdb_env_close(env);
    printf("append_seconds=%.6f scan_seconds=%.6f entries=%ld file_bytes=%lld checksum=%llu\n", appended - start,
           scanned - appended, entries, file_bytes, (unsigned long long)checksum);
    free(value);
    return 0;
}
