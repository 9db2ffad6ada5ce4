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
// Usable bytes of the blocks allocated and freed while counting: their difference is the heap the
// counted stretch added (a block from before the start that it frees counts against it).
static atomic_ullong allocated_bytes;
static atomic_ullong freed_bytes;

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
extern size_t malloc_usable_size(void *pointer);

static inline int is_counting(void) { return atomic_load_explicit(&counting, memory_order_relaxed); }

// Counts one allocation and its usable bytes; returns `pointer`.
static inline void *count_one(void *pointer) {
    if (is_counting()) {
        atomic_fetch_add_explicit(&allocation_count, 1, memory_order_relaxed);
        if (pointer) atomic_fetch_add_explicit(&allocated_bytes, malloc_usable_size(pointer), memory_order_relaxed);
    }
    return pointer;
}

static inline void count_freed(void *pointer) {
    if (pointer && is_counting()) {
        atomic_fetch_add_explicit(&freed_bytes, malloc_usable_size(pointer), memory_order_relaxed);
    }
}

void *malloc(size_t size) { return count_one(__libc_malloc(size)); }

void *calloc(size_t count, size_t size) { return count_one(__libc_calloc(count, size)); }

void *realloc(void *pointer, size_t size) {
    // The old block's bytes go out (if it moves or shrinks), the new block's come in.
    size_t old_bytes = pointer && is_counting() ? malloc_usable_size(pointer) : 0;
    void *moved = __libc_realloc(pointer, size);
    if (moved || size == 0) atomic_fetch_add_explicit(&freed_bytes, old_bytes, memory_order_relaxed);
    return count_one(moved);
}

void free(void *pointer) {
    count_freed(pointer);
    __libc_free(pointer);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    void *pointer = count_one(__libc_memalign(alignment, size));
    if (!pointer) return ENOMEM;
    *out = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) { return count_one(__libc_memalign(alignment, size)); }

void *memalign(size_t alignment, size_t size) { return count_one(__libc_memalign(alignment, size)); }

#endif

void malloc_counter_start(void) {
    atomic_store(&allocation_count, 0);
    atomic_store(&allocated_bytes, 0);
    atomic_store(&freed_bytes, 0);
    atomic_store(&counting, 1);
}

unsigned long long malloc_counter_stop(void) {
    atomic_store(&counting, 0);
    return atomic_load(&allocation_count);
}

long long malloc_counter_net_bytes(void) {
    return (long long)atomic_load(&allocated_bytes) - (long long)atomic_load(&freed_bytes);
}

int malloc_counter_is_active(void) {
    malloc_counter_start();
    void *volatile probe = malloc(16);
    free(probe);
    return malloc_counter_stop() > 0;
}
