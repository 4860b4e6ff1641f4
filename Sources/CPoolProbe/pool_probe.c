// Starts the test process's pool probe before the tests run: a constructor,
// because Swift Testing has no hook that runs once around a whole run. It
// does nothing unless ANCHORAGE_POOL_PROBE names a file and this process is
// the test bundle (children such as `anchorage serve` inherit the variable
// but are not probed, nor are the copies of the bundle that Swift Testing's
// exit tests start, which SWT_EXIT_TEST_ID marks). The probe itself is
// Swift (PoolProbe.swift); it is entered from a thread of its own once every
// constructor has run.
#include "pool_probe.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *anchorage_pool_probe_thread(void *unused) {
    (void)unused;
    usleep(100000);
    anchorage_pool_probe_run();
    return NULL;
}

__attribute__((constructor)) static void anchorage_pool_probe_start(void) {
    const char *path = getenv("ANCHORAGE_POOL_PROBE");
    if (path == NULL || path[0] == '\0') return;
    if (getenv("SWT_EXIT_TEST_ID") != NULL) return;
    char executable[4096];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) return;
    executable[length] = '\0';
    if (strstr(executable, "PackageTests") == NULL) return;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    pthread_create(&thread, &attributes, anchorage_pool_probe_thread, NULL);
    pthread_attr_destroy(&attributes);
}
