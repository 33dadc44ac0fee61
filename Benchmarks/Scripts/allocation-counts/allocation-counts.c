// An LD_PRELOAD library for Benchmarks/Scripts/allocations.sh: it counts the heap allocations each thread makes
// (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) and, when the process exits, prints one line per
// thread that made any to standard error:
//   allocations thread <tid> <name> <count>
// The name is the thread's (pthread_setname_np, "binoban-loop" for the pipeline loop), read again every 64
// allocations, so a thread named after it started is printed under its name; the process's main thread is "(main)".
// It calls glibc's own entry points (__libc_malloc and the like), so it needs no dlsym and allocates nothing itself.
//
// Build: cc -O2 -shared -fPIC -o allocation-counts.so allocation-counts.c -lpthread
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

#define THREADS 1024
struct thread_count {
    long tid;
    long allocations;
    char name[16];
};
static struct thread_count counts[THREADS];
static atomic_int threads_seen;
static __thread struct thread_count *own;
static __thread int registered;

static inline void count_one(void) {
    if (!registered) {
        registered = 1;
        int slot = atomic_fetch_add(&threads_seen, 1);
        if (slot < THREADS) {
            own = &counts[slot];
            own->tid = syscall(SYS_gettid);
        }
    }
    if (own && (own->allocations++ & 63) == 0) pthread_getname_np(pthread_self(), own->name, sizeof own->name);
}

void *malloc(size_t size) { count_one(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { count_one(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { count_one(); return __libc_realloc(pointer, size); }
void *memalign(size_t alignment, size_t size) { count_one(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count_one(); return __libc_memalign(alignment, size); }
int posix_memalign(void **result, size_t alignment, size_t size) {
    count_one();
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *result = pointer;
    return 0;
}

__attribute__((destructor)) static void print_counts(void) {
    int seen = atomic_load(&threads_seen);
    for (int slot = 0; slot < seen && slot < THREADS; slot++) {
        if (counts[slot].allocations == 0) continue;
        const char *name = counts[slot].tid == getpid() ? "(main)" : counts[slot].name[0] ? counts[slot].name : "-";
        fprintf(stderr, "allocations thread %ld %s %ld\n", counts[slot].tid, name, counts[slot].allocations);
    }
}
