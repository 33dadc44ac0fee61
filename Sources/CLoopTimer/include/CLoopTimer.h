// A one-shot timer that any thread can arm and one thread waits on: the pipeline loop's park on Linux (timerfd).
//
// A caller that hands the loop its first event after a quiet spell arms the timer a few milliseconds ahead instead
// of waking the loop at once, so the loop wakes once per group of events (BinobanCore's LoopThread, Decision 0230).
// Glibc's Swift module does not offer <sys/timerfd.h>, hence this shim. Elsewhere than Linux the functions report
// the timer as unavailable (create returns -1).
#ifndef CLOOPTIMER_H
#define CLOOPTIMER_H

#include <stdint.h>

/// A non-blocking timer on the monotonic clock, or -1.
int cloop_timer_create(void);

/// Arms the timer to fire once, `nanoseconds` from now (at least 1: at once). Replaces an earlier setting.
int cloop_timer_arm(int timer, int64_t nanoseconds);

/// Disarms the timer and forgets an expiry not yet waited for.
int cloop_timer_disarm(int timer);

/// Waits until the timer fires or `timeout_nanoseconds` pass (negative: no timeout); returns 1 if it fired (the
/// expiry is consumed), 0 otherwise (timeout, interruption).
int cloop_timer_wait(int timer, int64_t timeout_nanoseconds);

/// Closes the timer.
void cloop_timer_close(int timer);

/// Names the calling thread (the pipeline loop's), so that profilers and per-thread figures can tell it from the
/// thread that started it, whose name it would otherwise keep. At most 15 bytes are kept.
void cloop_name_thread(const char *name);

#endif
