#define _GNU_SOURCE
#include "CLoopTimer.h"

#if defined(__linux__)
#include <poll.h>
#include <pthread.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

int cloop_timer_create(void) { return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC); }

int cloop_timer_arm(int timer, int64_t nanoseconds) {
    struct itimerspec setting = {0};
    if (nanoseconds < 1) nanoseconds = 1;
    setting.it_value.tv_sec = (time_t)(nanoseconds / 1000000000);
    setting.it_value.tv_nsec = (long)(nanoseconds % 1000000000);
    return timerfd_settime(timer, 0, &setting, NULL);
}

int cloop_timer_disarm(int timer) {
    // Setting the timer (here: to nothing) also clears an expiry that was not read yet.
    struct itimerspec setting = {0};
    return timerfd_settime(timer, 0, &setting, NULL);
}

int cloop_timer_wait(int timer, int64_t timeout_nanoseconds) {
    struct pollfd watched = {.fd = timer, .events = POLLIN, .revents = 0};
    struct timespec timeout;
    struct timespec *limit = NULL;
    if (timeout_nanoseconds >= 0) {
        timeout.tv_sec = (time_t)(timeout_nanoseconds / 1000000000);
        timeout.tv_nsec = (long)(timeout_nanoseconds % 1000000000);
        limit = &timeout;
    }
    if (ppoll(&watched, 1, limit, NULL) <= 0) return 0;
    uint64_t expiries = 0;
    return read(timer, &expiries, sizeof expiries) == (ssize_t)sizeof expiries ? 1 : 0;
}

void cloop_timer_close(int timer) { close(timer); }

void cloop_name_thread(const char *name) { (void)pthread_setname_np(pthread_self(), name); }

#else

int cloop_timer_create(void) { return -1; }
int cloop_timer_arm(int timer, int64_t nanoseconds) { (void)timer; (void)nanoseconds; return -1; }
int cloop_timer_disarm(int timer) { (void)timer; return -1; }
int cloop_timer_wait(int timer, int64_t timeout_nanoseconds) { (void)timer; (void)timeout_nanoseconds; return 0; }
void cloop_timer_close(int timer) { (void)timer; }
void cloop_name_thread(const char *name) { (void)name; }

#endif
