// Counts heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc) made while
// counting is on, and the usable bytes they take less those freed, by interposing the allocator for the process that links this target.
#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

/// Starts counting from zero.
void malloc_counter_start(void);
/// Stops counting and returns the allocations counted since the start.
unsigned long long malloc_counter_stop(void);
/// Usable bytes allocated less usable bytes freed since the start (while counting): the heap the
/// counted stretch added.
long long malloc_counter_net_bytes(void);
/// True when the interposition is live (a probe malloc was counted).
int malloc_counter_is_active(void);

#endif
