// An LD_PRELOAD library for the time-to-disk benchmark (BENCH_MODE=one-at-a-time, BENCH_TIME_TO_DISK=1): it wraps
// write(2) and, for every event in the written bytes (found by the benchmark's `"index":N` property), notes the
// monotonic instant the write returned. The benchmark reads the instants back with dlsym, so the write instant is
// seen for any build of the SDK, with no thread of its own and no change to the SDK.
//
// Build: cc -O2 -shared -fPIC -o write-instants.so write-instants.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CAPACITY (1 << 22)
static uint64_t instants[CAPACITY];
static ssize_t (*real_write)(int, const void *, size_t);

// The instant event `index` was written (monotonic nanoseconds), or 0 if it was not seen.
uint64_t bench_write_instant(int64_t index) {
    return index >= 0 && index < CAPACITY ? __atomic_load_n(&instants[index], __ATOMIC_RELAXED) : 0;
}

ssize_t write(int descriptor, const void *bytes, size_t count) {
    if (!real_write) real_write = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    ssize_t written = real_write(descriptor, bytes, count);
    if (written <= 0 || descriptor <= 2) return written;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t instant = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
    static const char key[] = "\"index\":";
    const char *at = bytes;
    const char *end = at + written;
    while (at < end && (at = memmem(at, (size_t)(end - at), key, sizeof key - 1)) != NULL) {
        at += sizeof key - 1;
        int64_t index = 0;
        int digits = 0;
        while (at < end && *at >= '0' && *at <= '9') { index = index * 10 + (*at - '0'); at++; digits++; }
        if (digits > 0 && index < CAPACITY && __atomic_load_n(&instants[index], __ATOMIC_RELAXED) == 0)
            __atomic_store_n(&instants[index], instant, __ATOMIC_RELAXED);
    }
    return written;
}
