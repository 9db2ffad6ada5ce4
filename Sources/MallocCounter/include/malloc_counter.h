// Counts heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc) made while
// counting is on, by interposing the allocator for the process that links this target.
#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

/// Starts counting from zero.
void malloc_counter_start(void);
/// Stops counting and returns the allocations counted since the start.
unsigned long long malloc_counter_stop(void);
/// True when the interposition is live (a probe malloc was counted).
int malloc_counter_is_active(void);

#endif
