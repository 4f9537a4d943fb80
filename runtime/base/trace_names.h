// The names of the zones and counters the runtime emits (one table, so that
// the code, the trace tests and the profiling guide agree). Dispatch slices
// and VM zones are named at run time instead: dispatches after their entry
// point, invocations after the function, native calls after the import
// ("hal.command_buffer.dispatch").
#ifndef KILN_RUNTIME_BASE_TRACE_NAMES_H_
#define KILN_RUNTIME_BASE_TRACE_NAMES_H_

// A queue submission (kiln_hal_device_queue_execute), on the caller thread.
#define KILN_TRACE_ZONE_QUEUE_EXECUTE "hal.device.queue_execute"
// One queue operation run by the device (its wait, execution and signal),
// on the device's queue thread (local-task) or the caller (local-sync).
#define KILN_TRACE_ZONE_QUEUE_OPERATION "hal.queue.operation"
// The execution of one command buffer; arg "commands".
#define KILN_TRACE_ZONE_COMMAND_BUFFER "hal.command_buffer.execute"
// The track of allocator counters; series "live_bytes" and "peak_bytes".
#define KILN_TRACE_COUNTER_ALLOCATOR "hal.allocator"
// One parallel job on the calling thread (task executor); arg "count".
#define KILN_TRACE_ZONE_PARALLEL_FOR "task.parallel_for"
// A worker's turn at a parallel job (task executor).
#define KILN_TRACE_ZONE_WORKER_RUN "task.worker.run"
// The compiler: the whole compilation, parsing, and one zone per pass (named
// after the pass).
#define KILN_TRACE_ZONE_COMPILE "compile"
#define KILN_TRACE_ZONE_PARSE "parse"
#define KILN_TRACE_ZONE_VERIFY "verify"

#endif  // KILN_RUNTIME_BASE_TRACE_NAMES_H_
