// Atomics: thin names over C11 <stdatomic.h> for the few patterns the runtime
// uses (relaxed counters, acquire/release publication, seq_cst handshakes),
// so that every use spells its memory order the same way and reads
// uniformly. C only: C++ translation units must not include this header.
#ifndef KILN_RUNTIME_BASE_ATOMICS_H_
#define KILN_RUNTIME_BASE_ATOMICS_H_

#ifdef __cplusplus
#error "runtime/base/atomics.h is C-only (C11 stdatomic)"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

typedef _Atomic int32_t kiln_atomic_int32_t;
typedef _Atomic uint32_t kiln_atomic_uint32_t;
typedef _Atomic int64_t kiln_atomic_int64_t;
typedef _Atomic uint64_t kiln_atomic_uint64_t;
typedef _Atomic intptr_t kiln_atomic_intptr_t;
typedef _Atomic uintptr_t kiln_atomic_uintptr_t;
typedef _Atomic bool kiln_atomic_bool_t;
// An atomic pointer to T: kiln_atomic_ptr(foo_t*) ptr;
#define kiln_atomic_ptr(T) _Atomic(T)

// Initializes an atomic that no other thread can see yet (non-atomic store).
#define kiln_atomic_init(p, v) atomic_init((p), (v))

//===----------------------------------------------------------------------===//
// Relaxed: counters and statistics with no ordering of other memory
//===----------------------------------------------------------------------===//

#define kiln_atomic_load_relaxed(p) \
  atomic_load_explicit((p), memory_order_relaxed)
#define kiln_atomic_store_relaxed(p, v) \
  atomic_store_explicit((p), (v), memory_order_relaxed)
#define kiln_atomic_fetch_add_relaxed(p, v) \
  atomic_fetch_add_explicit((p), (v), memory_order_relaxed)
#define kiln_atomic_fetch_sub_relaxed(p, v) \
  atomic_fetch_sub_explicit((p), (v), memory_order_relaxed)

//===----------------------------------------------------------------------===//
// Acquire/release: publishing data to another thread
//===----------------------------------------------------------------------===//

// Loads and makes the writes released before the matching store visible.
#define kiln_atomic_load_acquire(p) \
  atomic_load_explicit((p), memory_order_acquire)
// Stores after every earlier write of this thread.
#define kiln_atomic_store_release(p, v) \
  atomic_store_explicit((p), (v), memory_order_release)
// Read-modify-writes that both acquire and release (ref counts, claims).
#define kiln_atomic_fetch_add_acq_rel(p, v) \
  atomic_fetch_add_explicit((p), (v), memory_order_acq_rel)
#define kiln_atomic_fetch_sub_acq_rel(p, v) \
  atomic_fetch_sub_explicit((p), (v), memory_order_acq_rel)
#define kiln_atomic_exchange_acq_rel(p, v) \
  atomic_exchange_explicit((p), (v), memory_order_acq_rel)
// Compare-and-swap: if *p == *expected stores |desired| and returns true;
// otherwise loads *p into *expected and returns false.
#define kiln_atomic_compare_exchange_acq_rel(p, expected, desired) \
  atomic_compare_exchange_strong_explicit(                         \
      (p), (expected), (desired), memory_order_acq_rel, memory_order_acquire)

//===----------------------------------------------------------------------===//
// Sequentially consistent: Dekker-style handshakes (store then load of a
// different variable on two threads) that acquire/release cannot order
//===----------------------------------------------------------------------===//

#define kiln_atomic_load_seq_cst(p) atomic_load((p))
#define kiln_atomic_store_seq_cst(p, v) atomic_store((p), (v))
#define kiln_atomic_fetch_add_seq_cst(p, v) atomic_fetch_add((p), (v))
#define kiln_atomic_fetch_sub_seq_cst(p, v) atomic_fetch_sub((p), (v))
#define kiln_atomic_exchange_seq_cst(p, v) atomic_exchange((p), (v))

// A full memory fence.
#define kiln_atomic_thread_fence_seq_cst() \
  atomic_thread_fence(memory_order_seq_cst)

//===----------------------------------------------------------------------===//
// Spinning
//===----------------------------------------------------------------------===//

// A hint to the CPU inside a short spin-wait loop (PAUSE/YIELD); no-op
// elsewhere. Never spin unbounded: fall back to a futex wait.
static inline void kiln_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#endif
}

#endif  // KILN_RUNTIME_BASE_ATOMICS_H_
