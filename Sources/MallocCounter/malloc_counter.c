#include "malloc_counter.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <errno.h>

// Under a sanitizer its runtime owns the allocator, and the counter stays off
// (malloc_counter_is_active() is 0, and the bench reports no allocation counts): interposed, the
// thread sanitizer's runtime called our instrumented malloc while it was still initialising and
// crashed the process before main (every bench child under `make sanitize`), and the address
// sanitizer's free would meet blocks its allocator never made.
static atomic_int counting;
static atomic_ullong allocation_count;

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define MALLOC_COUNTER_UNDER_SANITIZER 1
#endif
#endif

#ifndef MALLOC_COUNTER_UNDER_SANITIZER
// glibc's own entry points: calling them needs no dlsym, so nothing allocates while the
// interposers are being resolved.
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static inline void count_one(void) {
    if (atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocation_count, 1, memory_order_relaxed);
    }
}

void *malloc(size_t size) {
    count_one();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_one();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    __libc_free(pointer);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    count_one();
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *out = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

#endif

void malloc_counter_start(void) {
    atomic_store(&allocation_count, 0);
    atomic_store(&counting, 1);
}

unsigned long long malloc_counter_stop(void) {
    atomic_store(&counting, 0);
    return atomic_load(&allocation_count);
}

int malloc_counter_is_active(void) {
    malloc_counter_start();
    void *volatile probe = malloc(16);
    free(probe);
    return malloc_counter_stop() > 0;
}
