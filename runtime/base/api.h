// Umbrella header for runtime/base: status, allocator, string views, ref
// counting, time, sync, threads, tracing (and the trace recorder), SHA-256 and
// CRC-32. atomics.h is included only for C (it is C11 stdatomic).
#ifndef KILN_RUNTIME_BASE_API_H_
#define KILN_RUNTIME_BASE_API_H_

#include "runtime/base/allocator.h"
#include "runtime/base/crc32.h"
#include "runtime/base/ref.h"
#include "runtime/base/sha256.h"
#include "runtime/base/status.h"
#include "runtime/base/string_view.h"
#include "runtime/base/sync.h"
#include "runtime/base/threads.h"
#include "runtime/base/time.h"
#include "runtime/base/trace_recorder.h"
#include "runtime/base/tracing.h"
#ifndef __cplusplus
#include "runtime/base/atomics.h"
#endif

#endif  // KILN_RUNTIME_BASE_API_H_
